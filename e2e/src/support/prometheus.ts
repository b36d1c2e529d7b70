// A real Prometheus (/usr/bin/prometheus) on a free loopback port with a temporary data
// directory and a generated configuration scraping the given targets every second, and a
// small exporter whose gauge value a test sets, for end-to-end tests of PromQL-driven policies.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { tempDir, writeFile, type Proc } from './processes.js';
import { freePort, startReadyDaemon } from './ready-daemon.js';

export interface PrometheusServer {
  /** `127.0.0.1:<port>`, what `prometheus.address` takes. */
  readonly address: string;
  readonly url: string;
  readonly proc: Proc;
  /** The value of an instant query (undefined when it has no single value). */
  query(q: string): Promise<number | undefined>;
  /** The label sets of the series an instant query answers. */
  series(q: string): Promise<Record<string, string>[]>;
}

export interface PrometheusOptions {
  /** `--web.enable-remote-write-receiver`: accept pushes on /api/v1/write. */
  remoteWriteReceiver?: boolean;
}

/**
 * Starts Prometheus scraping `targets` (`host:port`, /metrics) with scrape_interval 1s,
 * and waits until it is ready; killed in t.after. `SLUICE_PROMETHEUS_BIN` overrides the binary.
 */
export async function startPrometheus(t: TestContext, targets: string[], job = 'sluice-e2e', opts: PrometheusOptions = {}): Promise<PrometheusServer> {
  const dir = tempDir(t, 'sluice-prom-');
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    `  - job_name: ${JSON.stringify(job)}`,
    '    scrape_interval: 1s',
    '    scrape_timeout: 900ms',
    '    static_configs:',
    `      - targets: ${JSON.stringify(targets)}`,
    '',
  ].join('\n');
  const file = writeFile(dir, 'prometheus.yml', config);
  const bin = process.env.SLUICE_PROMETHEUS_BIN ?? '/usr/bin/prometheus';
  const { proc, url } = await startReadyDaemon(t, 'prometheus', bin, [
    `--config.file=${file}`,
    `--storage.tsdb.path=${dir}/data`,
    `--web.listen-address=127.0.0.1:${port}`,
    '--log.level=warn',
    '--storage.tsdb.retention.time=1h',
    ...(opts.remoteWriteReceiver === true ? ['--web.enable-remote-write-receiver'] : []),
  ], port);
  return {
    address: `127.0.0.1:${port}`,
    url,
    proc,
    async query(q) {
      const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = await r.json() as { data?: { resultType?: string; result?: unknown } };
      const res = body.data?.result;
      if (body.data?.resultType === 'scalar' && Array.isArray(res)) return Number(res[1]);
      if (body.data?.resultType === 'vector' && Array.isArray(res) && res.length === 1) return Number((res[0] as { value: [number, string] }).value[1]);
      return undefined;
    },
    async series(q) {
      const r = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
      const body = await r.json() as { data?: { resultType?: string; result?: { metric: Record<string, string> }[] } };
      return body.data?.resultType === 'vector' ? (body.data.result ?? []).map((x) => x.metric) : [];
    },
  };
}

export interface TestExporter {
  /** `127.0.0.1:<port>` */
  readonly target: string;
  /** Sets the value of the gauge `sluice_e2e_capacity`. */
  set(value: number): void;
}

/** A loopback HTTP server serving /metrics with one gauge, `sluice_e2e_capacity`, whose value the test sets. */
export async function startTestExporter(t: TestContext, initial = 0): Promise<TestExporter> {
  let value = initial;
  const server = http.createServer((req, res) => {
    if (req.url !== '/metrics') { res.writeHead(404).end(); return; }
    res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' });
    res.end(`# HELP sluice_e2e_capacity A value the test sets.\n# TYPE sluice_e2e_capacity gauge\nsluice_e2e_capacity ${value}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  const { port } = server.address() as AddressInfo;
  return { target: `127.0.0.1:${port}`, set: (v) => { value = v; } };
}
