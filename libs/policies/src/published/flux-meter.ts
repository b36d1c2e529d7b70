import { Type, type Static } from '@sinclair/typebox';
import { publishedComponent, publishedKind, EXAMPLE_COMMON } from './common.js';

export const PublishedFluxMeter = publishedComponent('flux_meter', {
  name: Type.String({ minLength: 1, description: 'The flux meter\'s name (its key in `resources.flow_control.flux_meters`).' }),
  attribute_key: Type.String({ description: 'The flow attribute it measures.' }),
  buckets: Type.Array(Type.Number(), { description: 'Upper bounds of the histogram\'s buckets, increasing.' }),
});
export type PublishedFluxMeter = Static<typeof PublishedFluxMeter>;

export const fluxMeterContract = publishedKind({
  component: PublishedFluxMeter,
  decision: undefined,
  example: {
    component: { ...EXAMPLE_COMMON, kind: 'flux_meter', component_id: 'flux_meter.m', selectors: [{ control_point: 'ingress' }], name: 'm', attribute_key: 'workload_duration_ms', buckets: [] },
    decision: undefined,
  },
});
