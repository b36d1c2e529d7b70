import type { DistCacheMetrics } from '../metrics.js';

/** Refutations within REFUTE_WINDOW_MS past which this member says its refutations do not hold. */
export const REFUTE_LIMIT = 5;
export const REFUTE_WINDOW_MS = 30_000;
/**
 * Packets claiming to come from peers fail authentication and none has
 * passed it for this long: this member's keys are not the group's.
 */
export const AUTH_PROBLEM_MS = 30_000;

export type SelfProblemListener = (problem: string | undefined) => void;

/**
 * Whether this member's own packets are likely dropped by the group, said by
 * the metric sluice_distcache_self_dropped, `problem` (the stats and the
 * agent's readiness) and a log line when it starts and ends: its
 * refutations do not hold (REFUTE_LIMIT within REFUTE_WINDOW_MS: someone
 * keeps declaring it dead, or the group drops what it sends), or packets
 * claiming to come from peers fail authentication while none has passed it
 * for AUTH_PROBLEM_MS (its keys differ from the group's). Unsigned packets
 * alone never make a problem (anyone can send them): with one genuine peer
 * heard, failures are someone else's forgeries.
 */
export class SelfHealth {
  private readonly refutes: number[] = [];
  private lastAuthOkMs: number;
  private peerFailMs = -Infinity;
  private peerFailId = '';
  private last: string | undefined;

  constructor(private readonly metrics: DistCacheMetrics, private readonly now: () => number, private readonly onChange?: SelfProblemListener) {
    this.lastAuthOkMs = now();
  }

  /** A packet passed authentication. */
  authOk(): void {
    this.lastAuthOkMs = this.now();
  }

  refuted(): void {
    this.metrics.refutations.inc();
    const now = this.now();
    this.refutes.push(now);
    while (this.refutes.length > 0 && now - this.refutes[0] > REFUTE_WINDOW_MS) this.refutes.shift();
    this.update();
  }

  /** A membership packet that failed authentication while claiming to come from peer `id` (as discovery lists it). */
  authFailed(id: string): void {
    this.peerFailMs = this.now();
    this.peerFailId = id;
    this.update();
  }

  /** What is wrong now, or undefined. */
  get problem(): string | undefined {
    const now = this.now();
    while (this.refutes.length > 0 && now - this.refutes[0] > REFUTE_WINDOW_MS) this.refutes.shift();
    if (now - this.peerFailMs < AUTH_PROBLEM_MS && now - this.lastAuthOkMs >= AUTH_PROBLEM_MS) {
      return `packets of peer ${this.peerFailId} fail authentication and none has passed it for ${AUTH_PROBLEM_MS / 1000} s: this agent's dist_cache.auth keys differ from the group's, so its own packets are dropped too`;
    }
    if (this.refutes.length >= REFUTE_LIMIT) {
      return `${this.refutes.length} refutations in ${REFUTE_WINDOW_MS / 1000} s do not hold: the group keeps declaring this member down (its packets may be dropped, or another process claims its id)`;
    }
    return undefined;
  }

  /** Re-evaluates (the problem ends with time too). */
  update(): void {
    const p = this.problem;
    this.metrics.selfDropped.set(p === undefined ? 0 : 1);
    if (p !== this.last) {
      this.last = p;
      this.onChange?.(p);
    }
  }
}
