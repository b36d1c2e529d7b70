import { Type, type Static } from '@sinclair/typebox';
import type { PublishedDecision } from '../published.js';
import { list, obj, str } from '../schema/fields.js';
import { InPort } from '../schema/ports.js';
import { Selectors } from '../schema/selector.js';
import { defineKind, type KindContext, type Publishing } from './kind.js';
import { publishByGroup } from './publish-by-group.js';
import { samplerContract } from '../published/sampler.js';

/** The sampler's parameters (also a load ramp's `parameters.sampler`). */
export const SamplerParameters = obj(
  {
    label_key: Type.Optional(str('With a label, acceptance is sticky per label value (a hash of the value against the percentage); without, each flow is drawn at random.')),
    selectors: Selectors,
  },
  'Parameters of the sampler.',
);

/** The pass-through members of a sampler and a load ramp. */
export const passThroughMembers = {
  pass_through_label_values: Type.Optional(list(str('A label value.'), 'Values of `label_key` that are always accepted.')),
  pass_through_label_values_config_key: Type.Optional(str('The dynamic-configuration key whose list of strings replaces `pass_through_label_values` (the sampler is published again with it; the policy is not).')),
};

/**
 * Publishes a sampler for the agents (one per agent group of its selectors) and declares its
 * pass-through configuration key (a member of the kind's object at `ctx.path`); `parametersPath` is
 * the JSON path of the parameters.
 */
export function publishSampler(
  ctx: KindContext,
  parameters: Static<typeof SamplerParameters>,
  passThrough: { pass_through_label_values?: string[]; pass_through_label_values_config_key?: string },
  parametersPath: string,
): void {
  const labelKey = parameters.label_key;
  ctx.configKey(passThrough.pass_through_label_values_config_key, `${ctx.path}.pass_through_label_values_config_key`, 'string_list', { component_id: ctx.componentId, field: ['pass_through_label_values'] });
  publishByGroup(ctx, parameters.selectors, `${parametersPath}.selectors`, {
    kind: 'sampler',
    parameters: labelKey === undefined || labelKey === '' ? {} : { label_key: labelKey },
    pass_through_label_values: passThrough.pass_through_label_values ?? [],
  });
}

/** What the agents enforce for an accept percentage (0..100). */
export function samplerDecision(acceptPercentage: number): PublishedDecision {
  return { kind: 'sampler', accept_percentage: acceptPercentage, pass_through: false };
}

const schema = obj(
  {
    in_ports: obj(
      { accept_percentage: InPort },
      'Input ports. `accept_percentage` (0..100) is the share of flows accepted.',
    ),
    parameters: SamplerParameters,
    ...passThroughMembers,
  },
  'Accepts a percentage of the flows it selects and turns the others away (403).',
);

export const samplerKind: Publishing<typeof samplerContract> = defineKind({
  path: ['flow_control', 'sampler'],
  publishes: [samplerContract],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.accept_percentage, `${ctx.path}.in_ports.accept_percentage`, { minimum: 0, maximum: 100, finite: true });
    publishSampler(ctx, spec.parameters, spec, `${ctx.path}.parameters`);
    return {
      createRuntime() {
        let accept: number | undefined;
        return {
          tick(inputs) {
            const a = inputs[0];
            if (a !== null && a !== undefined && a >= 0 && a <= 100) accept = a;
            return { outputs: [], ...(accept === undefined ? {} : { decision: samplerDecision(accept) }) };
          },
        };
      },
    };
  },
});
