import { Type } from '@sinclair/typebox';
import type { PublishedDecision } from '../published.js';
import { bool, duration, int, list, num, obj, str } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import { AlerterParameters, compileAlert } from './alerter.js';
import { AutoScalerLogic, type ControllerSettings, type GradientSettings } from './auto-scaler-logic.js';
import { defineKind, type Publishing, type RaisedAlert, type SignalValue } from './kind.js';
import { podScalerContract } from '../published/pod-scaler.js';
import { KubernetesObjectSelector, MAX_REPLICAS, publishPodScaler } from './pod-scaler.js';
import { POD_SCALER_OUT_PORTS } from './pod-scaler-report.js';
import { ticksIn } from './tick-helpers.js';

/** The largest int64 as a double (Aperture's default `max_replicas`, 2^63 - 1, rounds to it); Sluice writes at most MAX_REPLICAS. */
const INT64_MAX = 2 ** 63;

const GradientIns = obj(
  { signal: Type.Optional(InPort), setpoint: Type.Optional(InPort) },
  'Input ports: `signal` and `setpoint`. While either is invalid the controller proposes the actual scale (it takes no part).',
);

const IncreasingGradient = obj(
  {
    in_ports: Type.Optional(GradientIns),
    parameters: Type.Optional(obj(
      {
        slope: Type.Optional(num('How the scale follows signal / setpoint: 1 when a higher signal needs more replicas (CPU per pod), -1 when a lower one does (a load multiplier).', { default: 1 })),
        max_gradient: Type.Optional(num('The largest gradient applied (the min gradient is 1).', { default: Number.MAX_VALUE, minimum: 1 })),
      },
      'The gradient `(signal / setpoint) ^ slope`, clamped to [1, max_gradient].',
    )),
  },
  'Scale-out by a gradient: proposes actual scale × gradient, rounded up.',
);

const DecreasingGradient = obj(
  {
    in_ports: Type.Optional(GradientIns),
    parameters: Type.Optional(obj(
      {
        slope: Type.Optional(num('How the scale follows signal / setpoint (as in the scale-out gradient).', { default: 1 })),
        min_gradient: Type.Optional(num('The smallest gradient applied (the max gradient is 1).', { default: -Number.MAX_VALUE, maximum: 1 })),
      },
      'The gradient `(signal / setpoint) ^ slope`, clamped to [min_gradient, 1].',
    )),
  },
  'Scale-in by a gradient: proposes actual scale × gradient, rounded up.',
);

const PeriodicDecrease = obj(
  {
    period: duration('Time between two decreases (counted in ticks, rounded up); the first is at the first tick.', undefined, true),
    scale_in_percentage: num('The share of the actual scale removed at each decrease, in percent (at least one replica).', { minimum: 0, maximum: 100 }),
  },
  'Scale-in on a timer: once a period, proposes the actual scale less `scale_in_percentage` % of it (rounded up, at least 1).',
);

const ScaleOutController = obj(
  {
    controller: obj({ gradient: IncreasingGradient }, 'The controller: `gradient`.'),
    alerter: AlerterParameters,
  },
  'A scale-out controller and the alert raised while it proposes more than the actual scale.',
);

const ScaleInController = obj(
  {
    controller: obj(
      { gradient: Type.Optional(DecreasingGradient), periodic: Type.Optional(PeriodicDecrease) },
      'The controller: exactly one of `gradient` or `periodic`.',
      { minProperties: 1, maxProperties: 1 },
    ),
    alerter: AlerterParameters,
  },
  'A scale-in controller and the alert raised while it proposes less than the actual scale.',
);

const KubernetesReplicas = obj(
  {
    kubernetes_object_selector: KubernetesObjectSelector,
    min_replicas: Type.Optional(int('The fewest replicas the auto scaler sets (a proto3 int64: a number or a decimal string).', { default: 0, minimum: 0, maximum: INT64_MAX })),
    max_replicas: Type.Optional(int(`The most replicas the auto scaler sets (a proto3 int64; above ${MAX_REPLICAS}, Kubernetes' limit, it is ${MAX_REPLICAS}).`, { default: INT64_MAX, minimum: 1, maximum: INT64_MAX })),
    out_ports: Type.Optional(obj(
      { actual_replicas: Type.Optional(OutPort), configured_replicas: Type.Optional(OutPort), desired_replicas: Type.Optional(OutPort) },
      'Output ports: `actual_replicas` and `configured_replicas` as the agent scaling the object reports them (`/scale` status.replicas and spec.replicas), `desired_replicas` the replicas the auto scaler decided at the previous tick. Invalid until known; known at the start of a tick, so they may feed the controllers back.',
    )),
  },
  'A Deployment, StatefulSet or ReplicaSet scaled through its `/scale` subresource by one agent of the group (as `auto_scale.pod_scaler`).',
);

const ScalingParameters = obj(
  {
    max_scale_out_percentage: Type.Optional(num('The most one scale-out adds, in percent of the actual scale (at least one replica).', { default: 10, minimum: 0 })),
    max_scale_in_percentage: Type.Optional(num('The most one scale-in removes, in percent of the actual scale (at least one replica).', { default: 1, minimum: 0 })),
    scale_out_cooldown: Type.Optional(duration('A scale-out is held this long (counted in ticks): no other scale-out and no scale-in meanwhile.', '30s', false)),
    scale_in_cooldown: Type.Optional(duration('A scale-in is held this long (counted in ticks): no other scale-in meanwhile; a scale-out ends it.', '120s', false)),
    cooldown_override_percentage: Type.Optional(num('A scale-out this many percent above the held one ends the scale-out cooldown at once.', { default: 50, minimum: 0 })),
    scale_out_alerter: AlerterParameters,
    scale_in_alerter: AlerterParameters,
  },
  'How far and how often the scale changes, and the alerts raised while the decided scale is above (scale-out) or below (scale-in) the configured one.',
);

const schema = obj(
  {
    scaling_backend: obj({ kubernetes_replicas: KubernetesReplicas }, 'What is scaled: `kubernetes_replicas`.'),
    scale_out_controllers: Type.Optional(list(ScaleOutController, 'Controllers that scale out: the largest proposal above the actual scale applies.')),
    scale_in_controllers: Type.Optional(list(ScaleInController, 'Controllers that scale in: the largest proposal applies when below the actual scale (an idle controller proposes the actual scale, so every one must agree to scale in).')),
    scaling_parameters: ScalingParameters,
    dry_run: Type.Optional(bool('Decide and report only: `/scale` is never written.', false)),
    dry_run_config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets dry_run (the scaler is published again with it; the policy is not).')),
  },
  'Scales a Kubernetes object from controllers\' proposals: scale-out and scale-in controllers each propose a scale from their signals (or a timer); scale-out wins over scale-in; cooldowns hold a decision, the max percentages bound a step, min/max replicas bound the scale. The decided replicas drive a pod scaler (one agent of the group writes `/scale`).',
);

export const autoScalerKind: Publishing<typeof podScalerContract> = defineKind({
  path: ['auto_scale', 'auto_scaler'],
  publishes: [podScalerContract],
  schema,
  // Its out-ports are what the agent reported (and the previous tick's decision): no cycle through it.
  delaysOutputs: true,
  compile(spec, ctx) {
    const backend = spec.scaling_backend.kubernetes_replicas;
    const bPath = `${ctx.path}.scaling_backend.kubernetes_replicas`;
    const min = Math.min(backend.min_replicas ?? 0, MAX_REPLICAS);
    const max = Math.min(backend.max_replicas ?? INT64_MAX, MAX_REPLICAS);
    if ((backend.min_replicas ?? 0) > (backend.max_replicas ?? INT64_MAX)) ctx.problem(`${bPath}.min_replicas`, `min_replicas (${backend.min_replicas ?? 0}) is more than max_replicas (${backend.max_replicas ?? INT64_MAX})`);

    const alertOf = (p: (typeof spec.scaling_parameters)['scale_out_alerter'], path: string) => {
      const alert = compileAlert(p, 'auto_scaler', ctx, path);
      return Object.freeze([alert]);
    };
    const scaleOut: GradientSettings[] = [];
    const outAlerts: (readonly RaisedAlert[])[] = [];
    (spec.scale_out_controllers ?? []).forEach((c, i) => {
      const at = `${ctx.path}.scale_out_controllers[${i}]`;
      const g = c.controller.gradient;
      ctx.input(g.in_ports?.signal, `${at}.controller.gradient.in_ports.signal`);
      ctx.input(g.in_ports?.setpoint, `${at}.controller.gradient.in_ports.setpoint`);
      scaleOut.push({ kind: 'gradient', slope: g.parameters?.slope ?? 1, minGradient: 1, maxGradient: g.parameters?.max_gradient ?? Number.MAX_VALUE });
      outAlerts.push(alertOf(c.alerter, `${at}.alerter`));
    });
    const scaleIn: ControllerSettings[] = [];
    const inAlerts: (readonly RaisedAlert[])[] = [];
    (spec.scale_in_controllers ?? []).forEach((c, i) => {
      const at = `${ctx.path}.scale_in_controllers[${i}]`;
      const g = c.controller.gradient;
      const p = c.controller.periodic;
      // A periodic controller reads no signal: its two inputs stay unconnected (invalid).
      ctx.input(g?.in_ports?.signal, `${at}.controller.gradient.in_ports.signal`);
      ctx.input(g?.in_ports?.setpoint, `${at}.controller.gradient.in_ports.setpoint`);
      if (p !== undefined) scaleIn.push({ kind: 'periodic', periodTicks: ticksIn(ctx.durationMs(p.period, '60s'), ctx.evaluationIntervalMs), percentage: p.scale_in_percentage });
      else scaleIn.push({ kind: 'gradient', slope: g?.parameters?.slope ?? 1, minGradient: g?.parameters?.min_gradient ?? -Number.MAX_VALUE, maxGradient: 1 });
      inAlerts.push(alertOf(c.alerter, `${at}.alerter`));
    });
    const sp = spec.scaling_parameters;
    const outAlert = alertOf(sp.scale_out_alerter, `${ctx.path}.scaling_parameters.scale_out_alerter`);
    const inAlert = alertOf(sp.scale_in_alerter, `${ctx.path}.scaling_parameters.scale_in_alerter`);

    for (const port of POD_SCALER_OUT_PORTS) ctx.output(backend.out_ports?.[port], `${bPath}.out_ports.${port}`);
    const componentId = ctx.componentId;
    ctx.configKey(spec.dry_run_config_key, `${ctx.path}.dry_run_config_key`, 'boolean', { component_id: componentId, field: ['dry_run'] });
    publishPodScaler(ctx, backend.kubernetes_object_selector, `${bPath}.kubernetes_object_selector`, {
      min_replicas: min,
      max_replicas: max,
      // The cooldowns are the auto scaler's own (below): the agent writes each decision at once.
      scale_out_cooldown_ms: 0,
      scale_in_cooldown_ms: 0,
      dry_run: spec.dry_run ?? false,
    });
    const settings = {
      scaleOut,
      scaleIn,
      minScale: min,
      maxScale: max,
      maxScaleOutPercentage: sp.max_scale_out_percentage ?? 10,
      maxScaleInPercentage: sp.max_scale_in_percentage ?? 1,
      cooldownOverridePercentage: sp.cooldown_override_percentage ?? 50,
      scaleOutCooldownTicks: ticksIn(ctx.durationMs(sp.scale_out_cooldown, '30s'), ctx.evaluationIntervalMs),
      scaleInCooldownTicks: ticksIn(ctx.durationMs(sp.scale_in_cooldown, '120s'), ctx.evaluationIntervalMs),
    };
    return {
      createRuntime() {
        const logic = new AutoScalerLogic(settings);
        let decided: number | undefined;
        const reported = (tick: { reports?: ReadonlyMap<string, Readonly<Record<string, number | null>>> }, port: string): number | undefined => {
          const v = tick.reports?.get(componentId)?.[port];
          return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
        };
        const value = (v: SignalValue | undefined): number | undefined => (v === null || v === undefined ? undefined : v);
        return {
          outputsAtStart(tick) {
            return [reported(tick, 'actual_replicas') ?? null, reported(tick, 'configured_replicas') ?? null, decided ?? null];
          },
          tick(inputs: readonly SignalValue[], tick) {
            const pairs = (n: number, offset: number) => Array.from({ length: n }, (_, i) => ({ signal: value(inputs[offset + 2 * i]), setpoint: value(inputs[offset + 2 * i + 1]) }));
            const configured = reported(tick, 'configured_replicas');
            const step = logic.step({
              actual: reported(tick, 'actual_replicas'),
              configured,
              scaleOut: pairs(scaleOut.length, 0),
              scaleIn: pairs(scaleIn.length, 2 * scaleOut.length),
            });
            // No decision this tick keeps the last one (the agent steers to it).
            if (step.desired !== undefined) decided = step.desired;
            const raised: RaisedAlert[] = [];
            step.scaleOutActive.forEach((on, i) => on && raised.push(...outAlerts[i]));
            step.scaleInActive.forEach((on, i) => on && raised.push(...inAlerts[i]));
            if (step.desired !== undefined && configured !== undefined && step.desired > configured) raised.push(...outAlert);
            if (step.desired !== undefined && configured !== undefined && step.desired < configured) raised.push(...inAlert);
            const decision: PublishedDecision | undefined = decided === undefined ? undefined : { kind: 'pod_scaler', replicas: decided };
            return { outputs: [], ...(decision === undefined ? {} : { decision }), ...(raised.length === 0 ? {} : { alerts: raised }) };
          },
        };
      },
    };
  },
});
