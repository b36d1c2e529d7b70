import { Type } from '@sinclair/typebox';
import type { PublishedDecision } from '../published.js';
import { bool, obj, str } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import { defineKind, type Publishing, type SignalValue } from './kind.js';
import { LoadSchedulerParameters, publishLoadScheduler } from './load-scheduler-parameters.js';
import { loadSchedulerContract } from '../published/load-scheduler.js';

const schema = obj(
  {
    in_ports: obj(
      { load_multiplier: Type.Optional(InPort) },
      'Input ports. `load_multiplier` (≥ 0): the share of the incoming token rate the agents admit; until it is valid the scheduler lets every flow through.',
    ),
    out_ports: Type.Optional(obj({ observed_load_multiplier: Type.Optional(OutPort) }, 'Output ports. `observed_load_multiplier`: the multiplier published last.')),
    parameters: LoadSchedulerParameters,
    dry_run: Type.Optional(bool('Decide and count, but admit every flow and queue none.', false)),
    dry_run_config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets dry_run (the scheduler is published again with it; the policy is not).')),
  },
  'A load scheduler on the agents of its selectors: flows queue by workload priority and are admitted at `load_multiplier ×` the incoming token rate (503 when a flow cannot wait).',
);

export const loadSchedulerKind: Publishing<typeof loadSchedulerContract> = defineKind({
  path: ['flow_control', 'load_scheduler'],
  publishes: [loadSchedulerContract],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.load_multiplier, `${ctx.path}.in_ports.load_multiplier`, { minimum: 0 });
    ctx.output(spec.out_ports?.observed_load_multiplier, `${ctx.path}.out_ports.observed_load_multiplier`);
    publishLoadScheduler(spec.parameters, spec.dry_run ?? false, `${ctx.path}.parameters`, ctx, { key: spec.dry_run_config_key, path: `${ctx.path}.dry_run_config_key` });
    return {
      createRuntime() {
        let multiplier: number | undefined;
        return {
          tick(inputs: readonly SignalValue[]) {
            const m = inputs[0];
            if (m !== null && m !== undefined && m >= 0 && Number.isFinite(m)) multiplier = m;
            const decision: PublishedDecision | undefined =
              multiplier === undefined ? undefined : { kind: 'load_scheduler', load_multiplier: multiplier, pass_through: false };
            return { outputs: [multiplier ?? null], ...(decision === undefined ? {} : { decision }) };
          },
        };
      },
    };
  },
});
