import { onceShutdown, type NamedLifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import { Backoff, type ProxyConfig } from '@sluice/clients';
import { parseDuration, type CloudExtensionConfig } from '@sluice/config';
import { Counter, type Registry } from 'prom-client';
import { ReportBuilder, type HeartbeatIdentity, type HeartbeatState } from './report.js';
import { transportFor, type HeartbeatTransport } from './transport.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface HeartbeatsOptions {
  /** `cloudext` of the process. */
  cloud: CloudExtensionConfig;
  /** `client.proxy` of the process. */
  proxy: ProxyConfig;
  identity: HeartbeatIdentity;
  state: HeartbeatState;
  logger: Logger;
  registry?: Registry;
  /** Replaces the transport that `cloud.endpoint` asks for (tests). */
  transport?: HeartbeatTransport;
}

/** The heartbeat sender, as a component of the process's lifecycle. */
export interface Heartbeats extends NamedLifecycle {
  readonly name: 'cloudext-heartbeats';
  start(): Promise<void>;
  shutdown(opts?: ShutdownOptions): Promise<void>;
  /** Heartbeats delivered so far. */
  delivered(): number;
}

/** Whether `cloudext` asks for heartbeats: an API key is set. */
export function heartbeatsOn(cloud: Pick<CloudExtensionConfig, 'api_key'>): boolean {
  return cloud.api_key !== '';
}

/**
 * Sends a heartbeat (sluice.cloudext.v1.ReportRequest: who the process is, its policies and their
 * hashes, the services it saw) to `cloudext.endpoint` every `cloudext.heartbeat_interval`, over
 * HTTP or gRPC as the endpoint says, with `cloudext.api_key` in the `x-api-key` header. A heartbeat
 * that fails is retried after the delays of `cloudext.client.grpc.backoff` (base, multiplier, jitter,
 * max) until one is delivered; then the interval applies again. The key is never logged: failures
 * are logged once when they start and once when heartbeats are delivered again.
 */
export function createHeartbeats(opts: HeartbeatsOptions): Heartbeats {
  const { cloud, logger } = opts;
  const intervalMs = Math.max(1, parseDuration(cloud.heartbeat_interval));
  const builder = new ReportBuilder(opts.identity, cloud, opts.state);
  const backoff = new Backoff(cloud.client.grpc.backoff);
  const results = opts.registry === undefined ? undefined
    : (opts.registry.getSingleMetric('cloudext_heartbeats_total') as Counter<'result'> | undefined)
      ?? new Counter({ name: 'cloudext_heartbeats_total', help: 'Heartbeats sent to the cloud service, by result (delivered, failed).', labelNames: ['result'], registers: [opts.registry] });
  let transport: HeartbeatTransport | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let delivered = 0;
  let failing = 0;

  const schedule = (ms: number): void => {
    if (stopped) return;
    timer = setTimeout(() => { inFlight = beat(); }, ms);
  };

  const beat = async (): Promise<void> => {
    if (transport === undefined || stopped) return;
    try {
      await transport.send(builder.build(delivered + 1));
      delivered++;
      results?.inc({ result: 'delivered' });
      if (failing > 0) logger.info('cloudext heartbeats delivered again', { target: transport.target, failed_attempts: failing });
      failing = 0;
      backoff.reset();
      schedule(intervalMs);
    } catch (err) {
      results?.inc({ result: 'failed' });
      failing++;
      const delay = backoff.next();
      if (failing === 1) logger.warn('cloudext heartbeat failed; retrying with backoff', { target: transport.target, error: err instanceof Error ? err.message : String(err), retry_in_ms: Math.round(delay) });
      schedule(delay);
    }
  };

  return {
    name: 'cloudext-heartbeats',
    start: async () => {
      transport = opts.transport ?? transportFor(cloud.endpoint, cloud.api_key, cloud.client, opts.proxy);
      logger.info('cloudext heartbeats on', { kind: transport.kind, target: transport.target, interval: cloud.heartbeat_interval });
      schedule(0);
    },
    shutdown: onceShutdown('cloudext heartbeats', async () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      // A heartbeat under way gets a moment to finish; shutdown does not wait for its timeout.
      await Promise.race([inFlight.catch(() => {}), new Promise((r) => setTimeout(r, 1000).unref())]);
      await transport?.close();
    }),
    delivered: () => delivered,
  };
}
