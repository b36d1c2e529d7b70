import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { hostname } from 'node:os';
import { createHttpClient, type HttpClient } from '@sluice/clients';
import { parseDuration, type ControllerConfig } from '@sluice/config';
import { Gauge, type Registry } from 'prom-client';
import { AlertBook, type PostableAlert } from './alert-book.js';
import { KeyedBatcher, type BatchTimers } from './alert-batcher.js';
import { AlertmanagerSender } from './alertmanager-sender.js';
import type { Logger } from '@sluice/telemetry/logger';

/** `GET /v1/alerts`: the controller's active alerts. */
export const ALERTS_PATH = '/v1/alerts';

export const ACTIVE_ALERTS_METRIC = 'alerts_active';

/** How often alerts whose resolve timeout ran out are resolved (and sent so). */
const SWEEP_EVERY_MS = 250;

export interface AlertingOptions {
  config: Pick<ControllerConfig, 'alerts' | 'otel' | 'client'>;
  registry: Registry;
  logger?: Logger;
  /** Default: an HTTP client made from `alerts.http_client` and `client.proxy`. */
  client?: HttpClient;
  /** Epoch milliseconds; default Date.now. */
  now?: () => number;
  timers?: BatchTimers;
}

/** What an HTTP framework hands a route: only the answer is used. */
export interface JsonResponse {
  json(body: unknown): unknown;
}

/** The alerts machinery of the controller, as one component with a lifecycle. */
export interface Alerting extends Lifecycle {
  readonly name: 'alerts';
  /** Where the circuits raise alerts (PolicyControllerOptions.alerts). */
  readonly book: AlertBook;
  /** The route of `GET /v1/alerts`: `{"alerts": [...]}`, each in Alertmanager's shape. */
  route(req: unknown, res: JsonResponse): void;
  start(): Promise<void>;
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

/**
 * The alerts of alerter components: kept in an AlertBook (active until their resolve timeout
 * after the last raise), batched as `otel.batch_alerts` says (one entry per alert: a newer state
 * replaces a pending one) and posted to each of `alerts.alertmanagers` (API v2).
 */
export function createAlerting(opts: AlertingOptions): Alerting {
  const { config, registry, logger } = opts;
  const urls = config.alerts.alertmanagers;
  const client = urls.length === 0 ? undefined : opts.client ?? createHttpClient(config.alerts.http_client, config.client.proxy);
  const ownsClient = opts.client === undefined;
  const book = new AlertBook({ ...(opts.now ? { now: opts.now } : {}), host: hostname() });
  let batcher: KeyedBatcher<PostableAlert> | undefined;
  if (client !== undefined) {
    const sender = new AlertmanagerSender(urls, client, registry, logger);
    const b = config.otel.batch_alerts;
    batcher = new KeyedBatcher<PostableAlert>(
      { sendBatchSize: b.send_batch_size, sendBatchMaxSize: b.send_batch_max_size, timeoutMs: parseDuration(b.timeout) },
      (alerts) => sender.send(alerts),
      opts.timers,
    );
    const batch = batcher;
    book.setOutlet((key, alert) => batch.add(key, alert));
  }
  if (registry.getSingleMetric(ACTIVE_ALERTS_METRIC) === undefined) {
    new Gauge({
      name: ACTIVE_ALERTS_METRIC, help: 'Alerts the controller holds active (raised, resolve timeout not yet run out).', registers: [registry],
      collect() {
        book.sweep();
        this.set(book.size);
      },
    });
  }
  let sweeper: NodeJS.Timeout | undefined;
  return {
    name: 'alerts',
    book,
    route(_req, res) {
      res.json({ alerts: book.list() });
    },
    async start() {
      sweeper = setInterval(() => book.sweep(), SWEEP_EVERY_MS);
      sweeper.unref();
    },
    shutdown: onceShutdown('alerts', async () => {
      if (sweeper !== undefined) clearInterval(sweeper);
      sweeper = undefined;
      await batcher?.shutdown();
      if (client !== undefined && ownsClient) await client.close();
    }),
  };
}
