import { adaptiveLoadSchedulerKind } from './adaptive-load-scheduler.js';
import { alerterKind } from './alerter.js';
import { autoScalerKind } from './auto-scaler.js';
import { arithmeticCombinatorKind } from './arithmetic-combinator.js';
import { deciderKind } from './decider.js';
import { emaKind } from './ema.js';
import { firstValidKind } from './first-valid.js';
import { gradientControllerKind } from './gradient-controller.js';
import type { ComponentKind } from './kind.js';
import { loadRampKind } from './load-ramp.js';
import { loadSchedulerKind } from './load-scheduler.js';
import { maxKind, minKind } from './min-max.js';
import { podScalerKind } from './pod-scaler.js';
import { promqlKind } from './promql.js';
import { quotaSchedulerKind } from './quota-scheduler.js';
import { rateLimiterKind } from './rate-limiter.js';
import { samplerKind } from './sampler.js';
import { switcherKind } from './switcher.js';
import { variableKind } from './variable.js';
import { boolVariableKind } from './bool-variable.js';
import { differentiatorKind } from './differentiator.js';
import { extrapolatorKind } from './extrapolator.js';
import { holderKind } from './holder.js';
import { integratorKind } from './integrator.js';
import { andKind, inverterKind, orKind } from './logic.js';
import { nestedCircuitKind, nestedSignalEgressKind, nestedSignalIngressKind } from './nested-circuit.js';
import { pulseGeneratorKind } from './pulse-generator.js';
import { signalGeneratorKind } from './signal-generator.js';
import { smaKind } from './sma.js';
import { unaryOperatorKind } from './unary-operator.js';

/**
 * Every component kind Sluice builds: the one registry of the policy side. A new kind is one
 * module (schema, compile step, tick, and the published contracts it `publishes`) plus one line
 * here; a name it takes over leaves UNSUPPORTED_COMPONENTS by itself, and the contracts it
 * publishes join PUBLISHED_KINDS (published/kinds.ts) by themselves.
 */
export const COMPONENT_KINDS = [
  rateLimiterKind,
  samplerKind,
  promqlKind,
  variableKind,
  arithmeticCombinatorKind,
  minKind,
  maxKind,
  firstValidKind,
  deciderKind,
  switcherKind,
  loadSchedulerKind,
  adaptiveLoadSchedulerKind,
  gradientControllerKind,
  emaKind,
  podScalerKind,
  autoScalerKind,
  smaKind,
  integratorKind,
  holderKind,
  differentiatorKind,
  extrapolatorKind,
  pulseGeneratorKind,
  signalGeneratorKind,
  unaryOperatorKind,
  andKind,
  orKind,
  inverterKind,
  boolVariableKind,
  nestedCircuitKind,
  nestedSignalIngressKind,
  nestedSignalEgressKind,
  alerterKind,
  quotaSchedulerKind,
  loadRampKind,
] as const satisfies readonly ComponentKind[];

/** Aperture 2.8 components Sluice does not build (yet); a kind added to COMPONENT_KINDS takes its name over. */
const APERTURE_ONLY: readonly (readonly string[])[] = [
  ['sma'],
  ['unary_operator'],
  ['extrapolator'],
  ['integrator'],
  ['differentiator'],
  ['and'],
  ['or'],
  ['inverter'],
  ['pulse_generator'],
  ['holder'],
  ['nested_circuit'],
  ['nested_signal_ingress'],
  ['nested_signal_egress'],
  ['signal_generator'],
  ['bool_variable'],
  ['flow_control', 'quota_scheduler'],
  ['flow_control', 'load_ramp'],
  ['flow_control', 'private'],
  ['auto_scale', 'pod_scaler'],
  ['auto_scale', 'auto_scaler'],
];

/** Aperture components a policy may not use: it is refused, naming the component. */
export const UNSUPPORTED_COMPONENTS: readonly (readonly string[])[] = APERTURE_ONLY.filter(
  (path) => !COMPONENT_KINDS.some((kind) => kind.path.join('.') === path.join('.')),
);

/** Aperture 2.8 components that have no effect on enforcement: accepted and reported as ignored (none now: the alerter is built). */
export const IGNORED_COMPONENTS: readonly (readonly string[])[] = [];
