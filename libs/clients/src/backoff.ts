import type { BackoffConfig } from './config.js';
import { durationMs } from './duration.js';
import { InvalidArgumentError } from '@sluice/errors';

/**
 * gRPC connection backoff (the gRPC connection-backoff algorithm): the first
 * delay is base_delay, each next one is multiplied by `multiplier` up to
 * max_delay, and each returned delay is spread by ±jitter.
 */
export class Backoff {
  readonly baseMs: number;
  readonly maxMs: number;
  private currentMs: number;

  constructor(readonly config: BackoffConfig, private readonly random: () => number = Math.random) {
    this.baseMs = durationMs(config.base_delay, 'backoff.base_delay');
    this.maxMs = durationMs(config.max_delay, 'backoff.max_delay');
    if (this.baseMs < 0) throw new InvalidArgumentError('backoff.base_delay must not be negative', 'backoff.base_delay');
    if (this.maxMs < this.baseMs) throw new InvalidArgumentError('backoff.max_delay must be at least base_delay', 'backoff.max_delay');
    if (!(config.multiplier >= 0)) throw new InvalidArgumentError('backoff.multiplier must be >= 0', 'backoff.multiplier');
    if (!(config.jitter >= 0)) throw new InvalidArgumentError('backoff.jitter must be >= 0', 'backoff.jitter');
    this.currentMs = this.baseMs;
  }

  /** The un-jittered delay the next call to `next` is based on. */
  get current(): number {
    return this.currentMs;
  }

  /** The next delay in milliseconds (jittered), advancing the sequence. */
  next(): number {
    const base = this.currentMs;
    this.currentMs = Math.min(this.maxMs, Math.max(this.baseMs, base * this.config.multiplier));
    const spread = base * this.config.jitter * (this.random() * 2 - 1);
    return Math.max(0, Math.min(this.maxMs, base + spread));
  }

  reset(): void {
    this.currentMs = this.baseMs;
  }
}
