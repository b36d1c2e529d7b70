import { Type } from '@sinclair/typebox';
import type { PublishedDecision } from '../published.js';
import { bool, duration, interval, num, obj, str } from '../schema/fields.js';
import { InPort, OutPort } from '../schema/ports.js';
import { gradientOf } from './gradient.js';
import { GradientParameters } from './gradient-controller.js';
import { AlerterParameters, compileAlert } from './alerter.js';
import { defineKind, type Publishing, type RaisedAlert, type SignalValue } from './kind.js';
import { LoadSchedulerParameters, publishLoadScheduler } from './load-scheduler-parameters.js';
import { loadSchedulerContract } from '../published/load-scheduler.js';

const schema = obj(
  {
    in_ports: obj(
      {
        signal: InPort,
        setpoint: InPort,
        overload_confirmation: Type.Optional(InPort),
      },
      'Input ports: `signal` (e.g. the service\'s latency) and `setpoint` (e.g. its EMA × a tolerance) are required; when `overload_confirmation` is connected, an overload also needs it valid and non-zero.',
    ),
    out_ports: Type.Optional(
      obj(
        {
          is_overload: Type.Optional(OutPort),
          desired_load_multiplier: Type.Optional(OutPort),
          observed_load_multiplier: Type.Optional(OutPort),
          incoming_token_rate: Type.Optional(OutPort),
        },
        'Output ports: 1 while overloaded (else 0), the multiplier published, the one in force before this tick (1 in pass-through), and the agents\' incoming token rate (tokens per second, read through PromQL as for `keep_admitted_rate`; invalid when the query fails).',
      ),
    ),
    parameters: obj(
      {
        load_scheduler: LoadSchedulerParameters,
        gradient: GradientParameters,
        max_load_multiplier: Type.Optional(num('The multiplier at which recovery ends: the scheduler goes back to pass-through.', { default: 2, exclusiveMinimum: 0 })),
        load_multiplier_linear_increment: Type.Optional(num('Added to the multiplier at each tick without overload.', { default: 0.0025, minimum: 0 })),
        proportional_cut: Type.Optional(bool('While an overload lasts, the multiplier is the one in force when it began times the gradient of the current reading, lowered only when that is lower, never raised before the overload ends. A lagging signal (a latency averaged over a window, measured when requests end) stays high for a few ticks after a cut has taken effect; by default (as in Aperture) each of those ticks cuts again and the multiplier falls far below what the service can take. A Sluice addition.', false)),
        recovery_headroom: Type.Optional(num('Recovery slows down as the signal comes close to the setpoint: the step is scaled by (1 − signal ÷ setpoint) ÷ `recovery_headroom`, at most 1 (0 holds the multiplier at a signal just under the setpoint; an invalid signal gives the whole step). With a setpoint of the EMA × a tolerance t, 1 − 1/t gives the whole step at the usual latency. A queue that starts to build after an overshoot raises the latency before it crosses the setpoint; this stops the climb a few ticks earlier. A Sluice addition; without it the step does not depend on the signal (as in Aperture).', { exclusiveMinimum: 0, maximum: 1 })),
        recovery_near_last_overload: Type.Optional(obj(
          {
            band: Type.Optional(num('The part of the remembered multiplier, below it, in which recovery slows down.', { default: 0.3, exclusiveMinimum: 0, maximum: 1 })),
            min_increment_fraction: Type.Optional(num('The smallest step in the band, as a part of `load_multiplier_linear_increment`.', { default: 0.25, exclusiveMinimum: 0, maximum: 1 })),
            increment_factor_past: Type.Optional(num('The step once recovery has passed the remembered multiplier without an overload (the load has changed), as a multiple of `load_multiplier_linear_increment`, until the next overload.', { default: 1, minimum: 1 })),
          },
          'Recovery remembers the multiplier in force when the last overload began (1 from pass-through) and slows down as it comes back to it: within `band` × that multiplier below it, the step is `load_multiplier_linear_increment` × the remaining distance ÷ the band, at least `min_increment_fraction` of the increment. Reaching the remembered multiplier without an overload forgets it (the load has changed): from there until the next overload the step is `increment_factor_past` × the increment. A signal that lags (a latency averaged over a window) finds an overshoot a few ticks late; approaching the multiplier that overloaded the service slowly keeps that overshoot, and the backlog it leaves, small. A Sluice addition; without it, every step is the whole increment (as in Aperture).',
        )),
        keep_admitted_rate: Type.Optional(obj(
          {
            window: Type.Optional(duration('The range over which the agents\' incoming token rate is read, as its highest value (`max_over_time`): the demand counts as lower only once it has stayed lower for the whole window, so a pause of traffic shorter than it (a stall of the clients) does not raise the multiplier. It must hold at least one scrape of the agents.', '10s', true)),
            evaluation_interval: Type.Optional(interval('How often the controller reads the incoming token rate.', '1s')),
          },
          'Counts the multiplier against a reference rate, the highest incoming token rate of the agents when an overload began, not against the current one. The controller reads the rate from the agents\' `sluice_scheduler_incoming_token_rate` gauge of this component (`sum(max_over_time(...[window]))`; Prometheus must scrape the agents). While the demand is below the reference, the published multiplier is raised by their ratio, so the agents keep admitting the token rate the loop chose instead of the same share of a smaller demand; each recovery step adds `load_multiplier_linear_increment` of the reference. An overload that begins at a lower demand (a latency blip after the load dropped) keeps the reference, so its recovery takes the same steps and seconds, not a share of the smaller demand; one at a higher demand raises it. After the load drops, the published multiplier reaches `max_load_multiplier` (every flow admitted) after about (`max_load_multiplier` × new rate ÷ old rate − multiplier) ÷ increment ticks, instead of climbing from a deep cut at the step that suited the overload; the scheduler returns to pass-through only once the multiplier itself reaches it, so when the demand comes back (after a pause in traffic, too) the published multiplier falls back with the reading, without waiting for a new overload to be found. A demand above that rate gets the multiplier itself (as without it). An invalid reading keeps the last valid one; a reading of 0 (no demand) publishes `max_load_multiplier`. A Sluice addition; in Aperture the multiplier is always a share of the current incoming rate.',
        )),
        alerter: Type.Optional(AlerterParameters),
      },
      'Parameters of the adaptive load scheduler. With `alerter`, an alert (label `type: adaptive_load_scheduler`) is raised at each tick the published load multiplier is below 1 (flows are being throttled), and resolves `resolve_timeout` after the last one.',
    ),
    dry_run: Type.Optional(bool('Decide and count, but admit every flow and queue none.', false)),
    dry_run_config_key: Type.Optional(str('The dynamic-configuration key whose boolean sets dry_run (the scheduler is published again with it; the policy is not).')),
  },
  'A load scheduler driven by a gradient: while `signal` is above `setpoint` (and overload is confirmed) the load multiplier is the one in force times `(signal / setpoint) ^ slope`; otherwise (an invalid signal included) it rises by `load_multiplier_linear_increment` per tick until `max_load_multiplier`, where the scheduler returns to pass-through. With `proportional_cut`, an overload\'s cuts do not compound: the multiplier is the one at its start times the current gradient.',
);

export const adaptiveLoadSchedulerKind: Publishing<typeof loadSchedulerContract> = defineKind({
  path: ['flow_control', 'adaptive_load_scheduler'],
  publishes: [loadSchedulerContract],
  schema,
  compile(spec, ctx) {
    const at = `${ctx.path}.in_ports`;
    ctx.input(spec.in_ports.signal, `${at}.signal`);
    ctx.input(spec.in_ports.setpoint, `${at}.setpoint`);
    ctx.input(spec.in_ports.overload_confirmation, `${at}.overload_confirmation`);
    const out = `${ctx.path}.out_ports`;
    ctx.output(spec.out_ports?.is_overload, `${out}.is_overload`);
    ctx.output(spec.out_ports?.desired_load_multiplier, `${out}.desired_load_multiplier`);
    ctx.output(spec.out_ports?.observed_load_multiplier, `${out}.observed_load_multiplier`);
    ctx.output(spec.out_ports?.incoming_token_rate, `${out}.incoming_token_rate`);
    const p = spec.parameters;
    publishLoadScheduler(p.load_scheduler, spec.dry_run ?? false, `${ctx.path}.parameters.load_scheduler`, ctx, { key: spec.dry_run_config_key, path: `${ctx.path}.dry_run_config_key` });
    const minG = p.gradient.min_gradient ?? -Number.MAX_VALUE;
    const maxG = p.gradient.max_gradient ?? Number.MAX_VALUE;
    if (minG > maxG) ctx.problem(`${ctx.path}.parameters.gradient.min_gradient`, 'must not be above max_gradient');
    const maxLm = p.max_load_multiplier ?? 2;
    const increment = p.load_multiplier_linear_increment ?? 0.0025;
    const confirmed = spec.in_ports.overload_confirmation !== undefined;
    const proportional = p.proportional_cut ?? false;
    const near = p.recovery_near_last_overload;
    const band = near?.band ?? 0.3;
    const minFraction = near?.min_increment_fraction ?? 0.25;
    const factorPast = near?.increment_factor_past ?? 1;
    const headroom = p.recovery_headroom;
    const keep = p.keep_admitted_rate;
    const readsRate = keep !== undefined || spec.out_ports?.incoming_token_rate !== undefined;
    if (readsRate) {
      ctx.promql(incomingTokenRateQuery(ctx.policyName, ctx.componentId, ctx.durationMs(keep?.window, '10s')), ctx.durationMs(keep?.evaluation_interval, '1s'));
    }
    const id = ctx.componentId;
    // raised at each tick the published multiplier is below 1 (flows are being throttled), as in Aperture
    const alerts: readonly RaisedAlert[] | undefined = p.alerter === undefined
      ? undefined
      : Object.freeze([compileAlert(p.alerter, 'adaptive_load_scheduler', ctx, `${ctx.path}.parameters.alerter`)]);
    return {
      createRuntime() {
        let passThrough = true;
        // the controller's multiplier; with keep_admitted_rate, a share of the incoming rate at `reference`
        let multiplier = maxLm;
        // what the agents were last told (with keep_admitted_rate: keptRateMultiplier of it)
        let published = maxLm;
        let decided = false;
        // the multiplier in force when the current overload began (proportional cuts)
        let onset: number | undefined;
        // the multiplier in force when the last overload began, until recovery reaches it again
        let remembered: number | undefined;
        let wasOverloaded = false;
        // recovery has passed the remembered multiplier since the last overload
        let passed = false;
        // keep_admitted_rate: the highest incoming token rate at the start of an overload, and the latest valid reading
        let reference: number | undefined;
        let incoming: number | undefined;
        const publish = (m: number): number => (keep === undefined ? m : keptRateMultiplier(m, reference, incoming, maxLm));
        return {
          tick(inputs: readonly SignalValue[], tickInputs) {
            const [signal, setpoint, confirmation] = inputs;
            let reading: SignalValue = null;
            if (readsRate) {
              const v = tickInputs.promql.get(id);
              if (v !== undefined && Number.isFinite(v) && v >= 0) reading = incoming = v;
            }
            const inForce = passThrough ? 1 : published;
            const valid = signal !== null && signal !== undefined && setpoint !== null && setpoint !== undefined;
            // nothing is published before the first valid reading
            if (!valid && !decided) return { outputs: [null, null, inForce, reading] };
            // an invalid reading is no overload (as in Aperture): a multiplier that starved the
            // service of the flows its latency is measured on still recovers
            const overloaded = valid && signal > setpoint && (!confirmed || (confirmation !== null && confirmation !== undefined && confirmation !== 0));
            if (!overloaded) onset = undefined;
            // the multiplier in force in the controller's terms (the same as inForce without keep_admitted_rate)
            let current = passThrough ? 1 : multiplier;
            if (overloaded && keep !== undefined && incoming !== undefined && (!wasOverloaded || reference === undefined)) {
              // from now on the multiplier is a share of the highest rate arriving as an overload began
              // (a later overload at a lower demand, a latency blip, keeps the steps of the higher one);
              // the rate admitted now carries over, so it does not jump
              const ref = Math.max(reference ?? 0, incoming);
              current = ref > 0 ? inForce * (incoming / ref) : inForce;
              multiplier = current;
              reference = ref;
            }
            if (overloaded && !wasOverloaded && near !== undefined) {
              remembered = current;
              passed = false;
            }
            wasOverloaded = overloaded;
            if (overloaded && proportional) {
              onset ??= current;
              const g = gradientOf(signal, setpoint, p.gradient.slope, minG, maxG) ?? 1;
              multiplier = Math.min(passThrough ? maxLm : multiplier, Math.max(0, onset * g));
              passThrough = false;
              published = publish(multiplier);
            } else if (overloaded) {
              const g = gradientOf(signal, setpoint, p.gradient.slope, minG, maxG) ?? 1;
              multiplier = Math.min(maxLm, Math.max(0, current * g));
              passThrough = false;
              published = publish(multiplier);
            } else if (!passThrough) {
              const step = passed ? increment * factorPast : recoveryStep(multiplier, remembered, increment, band, minFraction);
              multiplier = Math.min(maxLm, multiplier + step * headroomScale(valid ? signal : undefined, valid ? setpoint : undefined, headroom));
              if (remembered !== undefined && multiplier >= remembered) {
                remembered = undefined;
                passed = true;
              }
              // pass-through only once the controller's own multiplier is back at the maximum: a
              // published one raised by a low demand reading (a pause in traffic) falls back as
              // soon as the demand returns, without waiting for a new overload to be found
              passThrough = multiplier >= maxLm;
              published = passThrough ? maxLm : publish(multiplier);
            }
            decided = true;
            const decision: PublishedDecision = { kind: 'load_scheduler', load_multiplier: published, pass_through: passThrough };
            const throttling = alerts !== undefined && !passThrough && published < 1;
            return { outputs: [overloaded ? 1 : 0, published, inForce, reading], decision, ...(throttling ? { alerts } : {}) };
          },
        };
      },
    };
  },
});

/** The PromQL query of the incoming token rate of one component's schedulers, summed over its agents. */
export function incomingTokenRateQuery(policyName: string, componentId: string, windowMs: number): string {
  // a JSON string is a valid PromQL double-quoted string; a range in whole milliseconds is valid PromQL
  const selector = `sluice_scheduler_incoming_token_rate{policy_name=${JSON.stringify(policyName)},component_id=${JSON.stringify(componentId)}}`;
  return `sum(max_over_time(${selector}[${Math.max(1, Math.round(windowMs))}ms]))`;
}

/**
 * The multiplier to publish with keep_admitted_rate: `multiplier` is a share of the `reference`
 * rate; while less arrives, the share of what arrives that admits the same rate (at most `maxLm`).
 * Without a reference or a reading it is the multiplier itself; with nothing arriving, `maxLm`.
 */
export function keptRateMultiplier(multiplier: number, reference: number | undefined, incoming: number | undefined, maxLm: number): number {
  if (reference === undefined || incoming === undefined || !(multiplier > 0)) return Math.min(maxLm, multiplier);
  if (incoming <= 0) return maxLm;
  return Math.min(maxLm, multiplier * Math.max(1, reference / incoming));
}

/**
 * The step of one recovery tick: the whole increment, except within `band` × `remembered` below the
 * multiplier in force when the last overload began, where it is in proportion to the distance left
 * (at least `minFraction` of the increment).
 */
export function recoveryStep(multiplier: number, remembered: number | undefined, increment: number, band: number, minFraction: number): number {
  if (remembered === undefined || multiplier >= remembered) return increment;
  const left = remembered - multiplier;
  const width = band * remembered;
  return left >= width ? increment : increment * Math.max(minFraction, left / width);
}

/** How much of a recovery step to take when the signal is this close to the setpoint (1 without `headroom` or a valid reading). */
export function headroomScale(signal: number | undefined, setpoint: number | undefined, headroom: number | undefined): number {
  if (headroom === undefined || signal === undefined || setpoint === undefined || !(setpoint > 0)) return 1;
  return Math.min(1, Math.max(0, (1 - signal / setpoint) / headroom));
}
