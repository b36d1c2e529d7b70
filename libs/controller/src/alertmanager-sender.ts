import type { HttpClient } from '@sluice/clients';
import { Counter, type Registry } from 'prom-client';
import type { PostableAlert } from './alert-book.js';
import type { Logger } from '@sluice/telemetry/logger';

export const ALERTS_SENT_METRIC = 'alerts_sent_total';
export const ALERTS_SEND_FAILURES_METRIC = 'alerts_send_failures_total';

/** `<base>/api/v2/alerts`, keeping a path prefix of the base (`http://host/am` → `http://host/am/api/v2/alerts`). */
export function alertsEndpoint(base: string): string {
  return new URL('api/v2/alerts', base.endsWith('/') ? base : `${base}/`).toString();
}

/**
 * Posts batches of alerts to every Alertmanager (API v2), in parallel. A failed post is counted
 * (`alerts_send_failures_total{alertmanager}`) and logged once per failure streak; it is not
 * retried: the next raise of an alert sends it again, and Alertmanager resolves an alert by its
 * `endsAt` when nothing more comes.
 */
export class AlertmanagerSender {
  private readonly endpoints: { base: string; url: string; failing: boolean }[];
  private readonly sent: Counter<'alertmanager'>;
  private readonly failures: Counter<'alertmanager'>;

  constructor(alertmanagers: readonly string[], private readonly client: HttpClient, registry: Registry, private readonly logger?: Logger) {
    this.endpoints = alertmanagers.map((base) => ({ base, url: alertsEndpoint(base), failing: false }));
    const registers = [registry];
    this.sent = (registry.getSingleMetric(ALERTS_SENT_METRIC) as Counter<'alertmanager'> | undefined) ?? new Counter({
      name: ALERTS_SENT_METRIC, help: 'Alerts an Alertmanager accepted (each raise and each resolution counts).', labelNames: ['alertmanager'], registers,
    });
    this.failures = (registry.getSingleMetric(ALERTS_SEND_FAILURES_METRIC) as Counter<'alertmanager'> | undefined) ?? new Counter({
      name: ALERTS_SEND_FAILURES_METRIC, help: 'Batches of alerts an Alertmanager did not accept (an error answer or no answer).', labelNames: ['alertmanager'], registers,
    });
  }

  async send(alerts: readonly PostableAlert[]): Promise<void> {
    if (alerts.length === 0) return;
    const body = JSON.stringify(alerts);
    await Promise.all(this.endpoints.map(async (e) => {
      try {
        const res = await this.client.request(e.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (res.statusCode < 200 || res.statusCode >= 300) {
          throw new Error(`HTTP ${res.statusCode}: ${res.body.toString('utf8').slice(0, 200)}`);
        }
        this.sent.inc({ alertmanager: e.base }, alerts.length);
        if (e.failing) this.logger?.warn('alertmanager accepts alerts again', { alertmanager: e.base });
        e.failing = false;
      } catch (err) {
        this.failures.inc({ alertmanager: e.base });
        if (!e.failing) this.logger?.warn('sending alerts to alertmanager failed', { alertmanager: e.base, alerts: alerts.length, error: err instanceof Error ? err.message : String(err) });
        e.failing = true;
      }
    }));
  }
}
