/**
 * Closed loop (peak throughput: `concurrency` calls always in flight) and open loop (a
 * fixed rate, calls evenly spaced and sent on schedule whatever the replies do; latency
 * counted from each call's intended send time, so queueing behind a slow reply or a late
 * sender is measured, not omitted).
 */
import { Worker } from 'node:worker_threads';
import { nowMs } from './clock.js';
import type { PaceClockData } from './pace-clock.js';
import { Samples } from './samples.js';
import type { UnaryCaller } from './unary-caller.js';

export interface LoopResult {
  /** Calls answered with status 0 per second of the phase. */
  rps: number;
  latency: Samples;
  errors: number;
  /** First error seen, for the report. */
  firstError?: string;
  /** Open loop only: how late calls left against their schedule. */
  sendLag?: Samples;
  /** Open loop only: calls still unanswered when the drain time ran out. */
  unanswered?: number;
}

/** Keeps `concurrency` calls in flight for `ms` (a lane whose call fails stops). */
export function closedLoop(caller: UnaryCaller, concurrency: number, ms: number, latency = new Samples(2_000_000)): Promise<LoopResult> {
  let errors = 0;
  let firstError: string | undefined;
  let ok = 0;
  return new Promise((resolve) => {
    const start = nowMs();
    const deadline = start + ms;
    let inflight = 0;
    const one = (): void => {
      const t0 = nowMs();
      inflight++;
      caller.call((err) => {
        const t1 = nowMs();
        inflight--;
        if (err === null) { ok++; latency.add(t1 - t0); } else { errors++; firstError ??= err.message; }
        // A failed call ends its lane: a dead connection must not turn into a busy loop.
        if (t1 < deadline && err === null) one();
        else if (inflight === 0) resolve({ rps: ok / ((t1 - start) / 1000), latency, errors, firstError });
      });
    };
    for (let i = 0; i < concurrency; i++) one();
  });
}

export interface OpenLoopOptions {
  /** Calls per second, evenly spaced. */
  rate: number;
  /** How long calls are sent. */
  ms: number;
  /** The clock wakes at most every `quantumMs`; calls due in between leave together. */
  quantumMs?: number;
  /** How long to wait for replies after the last call left. */
  drainMs?: number;
  /** Where to add the samples (to merge several runs). */
  latency?: Samples;
  sendLag?: Samples;
}

/** Sends calls on an even schedule whatever the replies do; latency from each call's intended send time. */
export function openLoop(caller: UnaryCaller, o: OpenLoopOptions): Promise<LoopResult> {
  const count = Math.max(1, Math.round((o.rate * o.ms) / 1000));
  const intervalMs = 1000 / o.rate;
  const latency = o.latency ?? new Samples(count);
  const sendLag = o.sendLag ?? new Samples(count);
  const control = new SharedArrayBuffer(4);
  const startMs = nowMs() + 50;
  const data: PaceClockData = { startMs, intervalMs, count, quantumMs: o.quantumMs ?? 0.25, control };
  const clock = new Worker(new URL('./pace-clock.js', import.meta.url), { workerData: data });
  let sent = 0;
  let answered = 0;
  let ok = 0;
  let errors = 0;
  let firstError: string | undefined;
  return new Promise((resolve, reject) => {
    let drainTimer: NodeJS.Timeout | undefined;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      const cell = new Int32Array(control);
      Atomics.store(cell, 0, 1);
      Atomics.notify(cell, 0);
      void clock.terminate();
      resolve({ rps: ok / (o.ms / 1000), latency, errors, firstError, sendLag, unanswered: count - answered });
    };
    const send = (i: number): void => {
      const intended = startMs + i * intervalMs;
      sendLag.add(nowMs() - intended);
      caller.call((err) => {
        answered++;
        if (err === null) { ok++; latency.add(nowMs() - intended); } else { errors++; firstError ??= err.message; }
        if (answered === count) finish();
      });
    };
    clock.on('message', (due: number) => {
      while (sent < due) send(sent++);
      if (sent === count && drainTimer === undefined) drainTimer = setTimeout(finish, o.drainMs ?? 2000);
    });
    clock.once('error', reject);
  });
}
