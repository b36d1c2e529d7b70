import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { AggregationTemporality, type PushMetricExporter, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import snappy from 'snappyjs';
import { encodeWriteRequest } from './remote-write-proto.js';
import { toWriteRequest } from './remote-write-series.js';
import type { ExporterStats } from './exporter-stats.js';

/** What the exporter needs of an HTTP client (libs/clients HttpClient fits). */
export interface RemoteWriteHttp {
  request(url: string, options: { method: 'POST'; headers: Record<string, string>; body: Uint8Array; signal?: AbortSignal }): Promise<{ statusCode: number; body: Buffer }>;
}

/** Delays between attempts (libs/clients Backoff fits). */
export interface RetryBackoff {
  next(): number;
  reset(): void;
}

export interface RemoteWriteExporterOptions {
  /** The remote write URL: `<prometheus.address>/api/v1/write`. */
  url: string;
  http: RemoteWriteHttp;
  /** Labels on every series: agent_group, instance, pod, namespace. Empty values are left out. */
  labels: Readonly<Record<string, string>>;
  backoff: RetryBackoff;
  /** An export gives up (and fails) when a retry would start later than this after it began. */
  timeoutMs: number;
  stats: ExporterStats;
  onError?(err: Error): void;
  sleep?(ms: number, signal: AbortSignal): Promise<void>;
  now?(): number;
}

/** An answer that is worth another attempt: the server's trouble, or too many requests. */
function retriable(status: number): boolean {
  return status >= 500 || status === 429;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) { resolve(); return; }
    const done = () => { clearTimeout(t); signal.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The remote write URL of `prometheus.address`: `host:port` gets `http://`; a URL keeps its scheme and path. */
export function remoteWriteUrl(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  return `${withScheme.replace(/\/+$/, '')}/api/v1/write`;
}

/**
 * Prometheus remote write 1.0 as an OpenTelemetry push exporter: each collection of its periodic
 * reader becomes one WriteRequest (protobuf, snappy block-compressed), POSTed with the protocol's
 * headers. Network errors, 5xx and 429 answers are retried after the backoff's delays while the
 * export's time lasts; other answers (400: a sample Prometheus refuses) fail the export at once.
 * Cumulative temporality, as Prometheus expects.
 */
export class PrometheusRemoteWriteExporter implements PushMetricExporter {
  private readonly stop = new AbortController();
  private readonly inflight = new Set<Promise<void>>();
  private retrying = true;

  constructor(private readonly opts: RemoteWriteExporterOptions) {}

  export(metrics: ResourceMetrics, resultCallback: (result: ExportResult) => void): void {
    if (this.stop.signal.aborted) {
      resultCallback({ code: ExportResultCode.FAILED, error: new Error('remote write exporter is shut down') });
      return;
    }
    const p = this.send(metrics).then(
      () => resultCallback({ code: ExportResultCode.SUCCESS }),
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        this.opts.onError?.(error);
        resultCallback({ code: ExportResultCode.FAILED, error });
      },
    ).finally(() => this.inflight.delete(p));
    this.inflight.add(p);
  }

  private async send(metrics: ResourceMetrics): Promise<void> {
    const req = toWriteRequest(metrics, this.opts.labels);
    const points = req.timeseries.length;
    if (points === 0) return;
    const body = snappy.compress(encodeWriteRequest(req));
    const now = this.opts.now ?? Date.now;
    const sleep = this.opts.sleep ?? abortableSleep;
    const deadline = now() + this.opts.timeoutMs;
    this.opts.backoff.reset();
    for (let attempt = 1; ; attempt++) {
      let failure: Error;
      let final = false;
      try {
        const res = await this.opts.http.request(this.opts.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-protobuf',
            'content-encoding': 'snappy',
            'user-agent': 'sluice-remote-write',
            'x-prometheus-remote-write-version': '0.1.0',
          },
          body,
          signal: this.stop.signal,
        });
        if (res.statusCode >= 200 && res.statusCode < 300) {
          this.opts.stats.sent(points);
          return;
        }
        failure = new Error(`remote write to ${this.opts.url}: HTTP ${res.statusCode} ${res.body.toString('utf8', 0, 512).trim()}`);
        final = !retriable(res.statusCode);
      } catch (err) {
        if (this.stop.signal.aborted) return this.fail(points, new Error('remote write exporter is shut down'));
        failure = new Error(`remote write to ${this.opts.url}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (final || !this.retrying) return this.fail(points, failure);
      const delay = this.opts.backoff.next();
      if (now() + delay > deadline) return this.fail(points, new Error(`${failure.message} (gave up after ${attempt} attempts)`));
      this.opts.stats.retried();
      await sleep(delay, this.stop.signal);
    }
  }

  private fail(points: number, err: Error): never {
    this.opts.stats.failed(points, err);
    throw err;
  }

  selectAggregationTemporality(): AggregationTemporality {
    return AggregationTemporality.CUMULATIVE;
  }

  /** From now on an export makes one attempt (the last export at shutdown must not hold the process). */
  stopRetrying(): void {
    this.retrying = false;
  }

  async forceFlush(): Promise<void> {
    await Promise.allSettled([...this.inflight]);
  }

  async shutdown(): Promise<void> {
    await Promise.race([this.forceFlush(), new Promise((r) => setTimeout(r, 2000).unref())]);
    this.stop.abort();
    await this.forceFlush();
  }
}
