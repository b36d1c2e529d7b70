import { Type } from '@sinclair/typebox';
import { map, obj, str } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import { defineKind, type SignalValue } from './kind.js';

/** The nested components: each of the shape of `spec.circuit.components[]`, checked when the policy is compiled. */
const NestedComponents = Type.Unsafe<Record<string, unknown>[]>({
  type: 'array',
  items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  description:
    'The components of the nested circuit, each of the shape of `spec.circuit.components[]` (checked when the policy is compiled: a resource\'s schema cannot describe the recursion). Their signal names are their own: they meet the enclosing circuit\'s only through the port maps.',
});

const schema = obj(
  {
    in_ports_map: Type.Optional(map(InPort, 'The enclosing circuit\'s in-ports, by the `port_name` of a `nested_signal_ingress` inside.')),
    out_ports_map: Type.Optional(map(OutPort, 'The enclosing circuit\'s out-ports, by the `port_name` of a `nested_signal_egress` inside.')),
    components: Type.Optional(NestedComponents),
  },
  'A circuit inside the circuit, run as part of it (its components get the ids `<its id>.<index>`, their signals are reported as `<its id>/<signal>`). Every port map entry needs an ingress or egress of that name inside; a port name is used by one ingress or egress only.',
);

/** The nested circuit itself evaluates nothing: its components are compiled in its place (see nested.ts). */
export const nestedCircuitKind = defineKind({
  path: ['nested_circuit'],
  schema,
  compile() {
    return { createRuntime: () => ({ tick: () => ({ outputs: [] }) }) };
  },
});

/** Passes one value through: the enclosing circuit's signal into the nested one, or out of it. */
const passThrough = { createRuntime: () => ({ tick: (inputs: readonly SignalValue[]) => ({ outputs: [inputs[0] ?? null] }) }) };

export const nestedSignalIngressKind = defineKind({
  path: ['nested_signal_ingress'],
  schema: obj(
    {
      port_name: str('The name of the nested circuit\'s port (a key of its `in_ports_map`).', { minLength: 1 }),
      out_ports: Type.Optional(obj({ signal: Type.Optional(OutPort) }, 'Output ports: `signal`, inside the nested circuit.')),
    },
    'Inside a nested circuit: the signal its `in_ports_map` maps `port_name` to (invalid when the map has no such entry).',
  ),
  compile(spec, ctx) {
    const nested = ctx.nestedPorts;
    if (nested === undefined) ctx.problem(ctx.path, 'a nested_signal_ingress belongs inside a nested_circuit');
    const mapped = nested?.in.get(spec.port_name);
    ctx.input(mapped?.port, mapped?.path ?? `${ctx.path}.port_name`);
    ctx.output(spec.out_ports?.signal, `${ctx.path}.out_ports.signal`);
    return passThrough;
  },
});

export const nestedSignalEgressKind = defineKind({
  path: ['nested_signal_egress'],
  schema: obj(
    {
      port_name: str('The name of the nested circuit\'s port (a key of its `out_ports_map`).', { minLength: 1 }),
      in_ports: Type.Optional(obj({ signal: Type.Optional(InPort) }, 'Input ports: `signal`, inside the nested circuit.')),
    },
    'Inside a nested circuit: writes its input to the signal its `out_ports_map` maps `port_name` to (nothing when the map has no such entry).',
  ),
  compile(spec, ctx) {
    const nested = ctx.nestedPorts;
    if (nested === undefined) ctx.problem(ctx.path, 'a nested_signal_egress belongs inside a nested_circuit');
    ctx.input(spec.in_ports?.signal, `${ctx.path}.in_ports.signal`);
    const mapped = nested?.out.get(spec.port_name);
    ctx.output(mapped?.port, mapped?.path ?? `${ctx.path}.port_name`);
    return passThrough;
  },
});
