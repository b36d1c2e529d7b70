/**
 * Worker thread that keeps an open-loop schedule: call i is intended at
 * `startMs + i * intervalMs` (process monotonic clock). The worker sleeps in Atomics.wait,
 * which takes fractional milliseconds (Node's timers only have whole ones), and posts the
 * number of calls due so far each time it grows. The main thread sends those calls and
 * measures each from its intended time, so a late sender shows up in the latency instead
 * of hiding it. Writing 1 into the shared cell stops the clock early.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { nowMs } from './clock.js';

export interface PaceClockData {
  startMs: number;
  intervalMs: number;
  count: number;
  /** Shortest sleep between two wake-ups: calls due meanwhile leave together, late by at most this. */
  quantumMs: number;
  /** Int32Array(1) over a SharedArrayBuffer: 0 = run, 1 = stop. */
  control: SharedArrayBuffer;
}

const { startMs, intervalMs, count, quantumMs, control } = workerData as PaceClockData;
const cell = new Int32Array(control);
let posted = 0;
while (Atomics.load(cell, 0) === 0) {
  const now = nowMs();
  const due = now < startMs ? 0 : Math.min(count, Math.floor((now - startMs) / intervalMs) + 1);
  if (due > posted) {
    parentPort?.postMessage(due);
    posted = due;
  }
  if (due >= count) break;
  const wait = Math.max(startMs + due * intervalMs - nowMs(), quantumMs);
  Atomics.wait(cell, 0, 0, wait);
}
