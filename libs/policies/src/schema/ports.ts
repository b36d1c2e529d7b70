import { Type, type Static } from '@sinclair/typebox';
import { obj, num, str, strEnum } from './fields.js';

export const SIGNAL_NAME_PATTERN = '^[A-Za-z0-9_.:-]+$';

export const ConstantSignal = obj(
  {
    value: Type.Optional(num('A fixed value (proto3 JSON also allows "NaN", "Infinity", "-Infinity").', { nonFinite: true })),
    special_value: Type.Optional(strEnum(['NaN', '+Inf', '-Inf'] as const, 'A special value: NaN (an invalid signal), +Inf or -Inf.')),
  },
  'A constant: exactly one of `value` or `special_value`.',
  { minProperties: 1, maxProperties: 1, title: 'ConstantSignal' },
);
export type ConstantSignal = Static<typeof ConstantSignal>;

export const InPort = obj(
  {
    signal_name: Type.Optional(str('The signal read by this port (written by exactly one out-port of the circuit).', { minLength: 1, pattern: SIGNAL_NAME_PATTERN })),
    constant_signal: Type.Optional(ConstantSignal),
  },
  'An input port: exactly one of `signal_name` or `constant_signal`.',
  { minProperties: 1, maxProperties: 1, title: 'InPort' },
);
export type InPort = Static<typeof InPort>;

export const OutPort = obj(
  { signal_name: str('The signal this port writes; a signal has exactly one writer.', { minLength: 1, pattern: SIGNAL_NAME_PATTERN }) },
  'An output port.',
  { title: 'OutPort' },
);
export type OutPort = Static<typeof OutPort>;

/** The value of a constant signal; NaN stands for an invalid signal. */
export function constantValue(c: ConstantSignal): number {
  if (c.value !== undefined) return c.value;
  if (c.special_value === '+Inf') return Number.POSITIVE_INFINITY;
  if (c.special_value === '-Inf') return Number.NEGATIVE_INFINITY;
  return Number.NaN;
}

/** `out_ports: {output}` of most signal components. */
export const OutputPorts = obj({ output: Type.Optional(OutPort) }, 'Output ports.');
