import { Type, type Static } from '@sinclair/typebox';
import { publishedComponent, publishedDecision, publishedKind, EXAMPLE_COMMON } from './common.js';

export const PublishedSampler = publishedComponent('sampler', {
  parameters: Type.Object({ label_key: Type.Optional(Type.String({ description: 'Acceptance is sticky per value of this label.' })) }),
  pass_through_label_values: Type.Array(Type.String(), { description: 'Values of `label_key` always accepted.' }),
});
export type PublishedSampler = Static<typeof PublishedSampler>;

export const SamplerDecision = publishedDecision('sampler', {
  accept_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'The share of flows accepted.' }),
  pass_through: Type.Boolean({ description: 'Accept every flow.' }),
});
export type SamplerDecision = Static<typeof SamplerDecision>;

export const samplerContract = publishedKind({
  component: PublishedSampler,
  decision: SamplerDecision,
  example: {
    component: { ...EXAMPLE_COMMON, kind: 'sampler', component_id: 'root.0', selectors: [{ control_point: 'ingress' }], parameters: {}, pass_through_label_values: [] },
    decision: { kind: 'sampler', accept_percentage: 50, pass_through: false },
  },
});
