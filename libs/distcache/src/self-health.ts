import type { DistCacheMetrics } from './metrics.js';

/** Refutations within REFUTE_WINDOW_MS past which this member says its refutations do not hold. */
export const REFUTE_LIMIT = 5;
export const REFUTE_WINDOW_MS = 30_000;
/** How long an authentication failure of a packet claiming to be a peer (or this member) is reported. */
export const AUTH_PROBLEM_MS = 60_000;

export type SelfProblemListener = (problem: string | undefined) => void;

/**
 * Whether this member's own packets are likely dropped by the group, said by
 * the metric sluice_distcache_self_dropped, `problem` (the stats and the
 * agent's readiness) and a log line when it starts and ends: its
 * refutations do not hold (REFUTE_LIMIT within REFUTE_WINDOW_MS: someone
 * keeps declaring it dead, or the group drops what it sends), or packets
 * claiming to come from a peer or from this member fail authentication (its
 * keys differ from the group's, or another process claims its address).
 */
export class SelfHealth {
  private readonly refutes: number[] = [];
  private authUntilMs = 0;
  private authWhat = '';
  private last: string | undefined;

  constructor(private readonly metrics: DistCacheMetrics, private readonly now: () => number, private readonly onChange?: SelfProblemListener) {}

  refuted(): void {
    this.metrics.refutations.inc();
    const now = this.now();
    this.refutes.push(now);
    while (this.refutes.length > 0 && now - this.refutes[0] > REFUTE_WINDOW_MS) this.refutes.shift();
    this.update();
  }

  /** A membership packet that failed authentication while claiming to come from `claimed` (a peer, or this member). */
  authFailed(claimed: 'peer' | 'self', id: string): void {
    this.authUntilMs = this.now() + AUTH_PROBLEM_MS;
    this.authWhat = claimed === 'self'
      ? `packets claiming to be this member (${id}) fail authentication: another process claims its id`
      : `packets of peer ${id} fail authentication: this member's dist_cache.auth keys differ from the group's, so its own packets are dropped too`;
    this.update();
  }

  /** What is wrong now, or undefined. */
  get problem(): string | undefined {
    const now = this.now();
    while (this.refutes.length > 0 && now - this.refutes[0] > REFUTE_WINDOW_MS) this.refutes.shift();
    if (now < this.authUntilMs) return this.authWhat;
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
