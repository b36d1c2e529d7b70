// The overload scenario of the load-scheduling tests: a workload whose latency grows with its
// concurrency (a queue model: N workers, service time S, an unbounded FIFO in front) and an
// open-loop load generator with two classes of traffic (gold and free) at set rates.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { Agent, request } from 'undici';

export interface QueueWorkload {
  readonly port: number;
  readonly url: string;
  /** `127.0.0.1:<port>`: Prometheus scrapes its /metrics. */
  readonly target: string;
  /** Requests in service plus waiting. */
  backlog(): number;
}

/**
 * N workers, each serving one request for `serviceMs`; others wait in FIFO order. With
 * `skipAbandoned` a request whose client has gone is dropped when its turn comes (a service
 * that notices cancellations); without, it is served all the same (the wasted work that makes
 * an overloaded service collapse). One timer per request in service, at most N at a time.
 */
export async function startQueueWorkload(t: TestContext, workers: number, serviceMs: number, skipAbandoned = true): Promise<QueueWorkload> {
  const waiting: { res: http.ServerResponse; arrived: number }[] = [];
  let busy = 0;
  let latencySum = 0;
  let answered = 0;
  const next = (): void => {
    while (busy < workers && waiting.length > 0) {
      const { res, arrived } = waiting.shift() as { res: http.ServerResponse; arrived: number };
      if (skipAbandoned && (res.destroyed || res.socket === null || res.socket.destroyed)) continue;
      busy++;
      setTimeout(() => {
        busy--;
        latencySum += performance.now() - arrived;
        answered++;
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        next();
      }, serviceMs);
    }
  };
  const server = http.createServer((req, res) => {
    if (req.url === '/metrics') {
      // the service's own latency (arrival to answer), as a service would export it
      res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end([
        '# TYPE workload_latency_ms summary',
        `workload_latency_ms_sum ${latencySum}`,
        `workload_latency_ms_count ${answered}`,
        '',
      ].join('\n'));
      return;
    }
    req.resume();
    req.on('end', () => {
      waiting.push({ res, arrived: performance.now() });
      next();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
  const { port } = server.address() as AddressInfo;
  return { port, url: `http://127.0.0.1:${port}`, target: `127.0.0.1:${port}`, backlog: () => busy + waiting.length };
}

export type TrafficClass = 'gold' | 'free';

export interface Outcome {
  readonly cls: TrafficClass;
  /** ms since the generator started. */
  readonly at: number;
  /** HTTP status; 0 when the client gave up (timeout) or the request failed. */
  readonly status: number;
  readonly latencyMs: number;
}

export interface Phase {
  readonly name: string;
  readonly durationMs: number;
  /** Requests per second of each class. */
  readonly rates: Readonly<Record<TrafficClass, number>>;
}

/**
 * Sends requests at fixed rates (open loop: a slow answer does not slow the sender), phase after
 * phase, from one 5 ms tick (no timer per request), paced by the clock. When the generator itself
 * was stalled (a busy machine), it catches up at most `maxCatchUpMs` of requests (250 ms by
 * default) and skips the rest: clients that were stalled too would not all send at once.
 * `onSecond` runs about once a second with the time since start. Resolves when every request has
 * an outcome.
 */
export async function drive(
  url: string,
  phases: readonly Phase[],
  opts: { timeoutMs: number; connections?: number; maxCatchUpMs?: number; onSecond?: (sinceStartMs: number) => void | Promise<void> },
): Promise<Outcome[]> {
  const dispatcher = new Agent({ connections: opts.connections ?? 1024, pipelining: 1, keepAliveTimeout: 30_000 });
  const outcomes: Outcome[] = [];
  const inflight: Promise<void>[] = [];
  const start = performance.now();
  const maxCatchUpMs = opts.maxCatchUpMs ?? 250;
  const sent: Record<TrafficClass, number> = { gold: 0, free: 0 };
  let phaseStart = 0;
  let lastSecond = 0;
  for (const phase of phases) {
    const phaseSent: Record<TrafficClass, number> = { gold: 0, free: 0 };
    for (;;) {
      const now = performance.now() - start;
      const inPhase = now - phaseStart;
      if (inPhase >= phase.durationMs) break;
      for (const cls of ['gold', 'free'] as const) {
        const due = Math.floor((inPhase / 1000) * phase.rates[cls]);
        // after a stall, what was due before the last maxCatchUpMs is skipped, not sent at once
        phaseSent[cls] = Math.max(phaseSent[cls], due - Math.ceil((maxCatchUpMs / 1000) * phase.rates[cls]));
        while (phaseSent[cls] < due) {
          phaseSent[cls]++;
          sent[cls]++;
          const t0 = performance.now();
          inflight.push(request(`${url}/work?class=${cls}&n=${sent[cls]}`, {
            method: 'GET',
            headers: { 'user-tier': cls },
            dispatcher,
            headersTimeout: opts.timeoutMs,
            bodyTimeout: opts.timeoutMs,
          }).then(
            async (r) => {
              await r.body.dump();
              outcomes.push({ cls, at: t0 - start, status: r.statusCode, latencyMs: performance.now() - t0 });
            },
            () => { outcomes.push({ cls, at: t0 - start, status: 0, latencyMs: performance.now() - t0 }); },
          ));
        }
      }
      if (opts.onSecond !== undefined && now - lastSecond >= 1000) {
        lastSecond = now;
        void opts.onSecond(now);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    phaseStart += phase.durationMs;
  }
  await Promise.all(inflight);
  await dispatcher.close();
  return outcomes.sort((a, b) => a.at - b.at);
}

/** The p-th percentile (0..100) of `values`; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? NaN : values.reduce((a, b) => a + b, 0) / values.length;
}
