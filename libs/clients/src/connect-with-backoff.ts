import type * as grpc from '@grpc/grpc-js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Backoff } from './backoff.js';
import type { GRPCClientConfig } from './config.js';
import { durationMs } from './duration.js';

/**
 * Waits until `client`'s channel is ready, the gRPC-Go way: each attempt may
 * take max(min_connection_timeout, current backoff); between failed attempts it
 * sleeps the jittered backoff (base_delay × multiplier^n, at most max_delay).
 * Rejects with the abort reason when `signal` aborts.
 */
export async function connectWithBackoff(client: grpc.Client, config: GRPCClientConfig, signal?: AbortSignal, onRetry?: (attempt: number, delayMs: number, error: Error) => void): Promise<void> {
  const minConnectMs = durationMs(config.min_connection_timeout, 'min_connection_timeout');
  const backoff = new Backoff(config.backoff);
  for (let attempt = 1; ; attempt++) {
    signal?.throwIfAborted();
    const deadline = Date.now() + Math.max(minConnectMs, backoff.current);
    const error = await new Promise<Error | undefined>((resolve) => client.waitForReady(deadline, (err) => resolve(err ?? undefined)));
    if (error === undefined) return;
    const delay = backoff.next();
    onRetry?.(attempt, delay, error);
    await sleep(delay, undefined, signal === undefined ? undefined : { signal });
  }
}
