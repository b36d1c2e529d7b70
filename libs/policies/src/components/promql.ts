import { Type } from '@sinclair/typebox';
import { interval, obj, str } from '../schema/fields.js';
import { OutputPorts } from '../schema/ports.js';
import { defineKind } from './kind.js';

const schema = obj(
  {
    query_string: str('The PromQL query; its result must be a scalar or a one-element vector.', { minLength: 1 }),
    evaluation_interval: Type.Optional(interval('How often the controller runs the query.', '10s')),
    out_ports: Type.Optional(OutputPorts),
  },
  'A PromQL query run by the controller against Prometheus; `output` is its value, invalid when the query fails, times out or answers anything but one number.',
);

export const promqlKind = defineKind({
  path: ['query', 'promql'],
  schema,
  compile(spec, ctx) {
    ctx.promql(spec.query_string, ctx.durationMs(spec.evaluation_interval, '10s'));
    ctx.output(spec.out_ports?.output, `${ctx.path}.out_ports.output`);
    const id = ctx.componentId;
    return {
      createRuntime() {
        return {
          tick(_inputs, tick) {
            const v = tick.promql.get(id);
            return { outputs: [v === undefined || Number.isNaN(v) ? null : v] };
          },
        };
      },
    };
  },
});
