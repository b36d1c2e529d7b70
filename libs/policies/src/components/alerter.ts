import { Type, type Static } from '@sinclair/typebox';
import { duration, list, map, obj, str, strEnum } from '../schema/fields.js';
import { InPort } from '../schema/ports.js';
import { ALERT_SEVERITIES, defineKind, type KindContext, type RaisedAlert, type SignalValue } from './kind.js';

/** Label names an alert may carry (Alertmanager refuses others). */
export const ALERT_LABEL_PATTERN = '^[a-zA-Z_][a-zA-Z0-9_]*$';

/** Labels the alert sets itself: a policy's `labels` may not name them. */
export const RESERVED_ALERT_LABELS: readonly string[] = ['alertname', 'severity', 'alert_channels'];

export const AlerterParameters = obj(
  {
    alert_name: str('Name of the alert (Alertmanager label `alertname`).', { minLength: 1 }),
    severity: Type.Optional(strEnum(ALERT_SEVERITIES, 'Severity of the alert (label `severity`): info, warn or crit.', 'info')),
    resolve_timeout: Type.Optional(duration('The alert resolves this long after the last tick that raised it (its `endsAt` in Alertmanager).', '5s', true)),
    alert_channels: Type.Optional(list(Type.String({ minLength: 1 }), 'Channels of the alert (label `alert_channels`, comma-separated), for Alertmanager routes to match.')),
    labels: Type.Optional(map(Type.String(), 'Labels added to the alert (names as in Prometheus; not alertname, severity or alert_channels).', ALERT_LABEL_PATTERN)),
  },
  'What an alert says: its name, severity, resolve timeout, channels and labels.',
);
export type AlerterParameters = Static<typeof AlerterParameters>;

const schema = obj(
  {
    in_ports: obj({ signal: InPort }, 'Input port: `signal`; while it is valid and non-zero, the alert is raised.'),
    parameters: AlerterParameters,
  },
  'Raises an alert at each tick its signal is valid and non-zero; the alert resolves `resolve_timeout` after the last such tick. The controller sends alerts to the Alertmanagers of `alerts.alertmanagers` and lists the active ones on `GET /v1/alerts`.',
);

/**
 * The alert an alerter raises, checked and built once at compile time: labels `policy_name`,
 * `component_id` and `type`, then the parameters' own labels.
 */
export function compileAlert(p: AlerterParameters, type: string, ctx: KindContext, path: string): RaisedAlert {
  for (const name of Object.keys(p.labels ?? {})) {
    if (RESERVED_ALERT_LABELS.includes(name)) ctx.problem(`${path}.labels.${name}`, `the alert sets ${name} itself; it may not be a label of the policy`);
  }
  return Object.freeze({
    name: p.alert_name,
    severity: p.severity ?? 'info',
    resolveTimeoutMs: ctx.durationMs(p.resolve_timeout, '5s'),
    channels: Object.freeze([...(p.alert_channels ?? [])]),
    labels: Object.freeze({ policy_name: ctx.policyName, component_id: ctx.componentId, type, ...(p.labels ?? {}) }),
  });
}

/** Aperture's truth of a signal: valid and non-zero. */
export function isTrue(value: SignalValue | undefined): boolean {
  return value !== null && value !== undefined && !Number.isNaN(value) && value !== 0;
}

export const alerterKind = defineKind({
  path: ['alerter'],
  schema,
  compile(spec, ctx) {
    ctx.input(spec.in_ports.signal, `${ctx.path}.in_ports.signal`);
    const alert = compileAlert(spec.parameters, 'alerter', ctx, `${ctx.path}.parameters`);
    const raised: readonly RaisedAlert[] = Object.freeze([alert]);
    return {
      createRuntime() {
        return {
          tick(inputs: readonly SignalValue[]) {
            return isTrue(inputs[0]) ? { outputs: [], alerts: raised } : { outputs: [] };
          },
        };
      },
    };
  },
});
