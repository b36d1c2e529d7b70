import { labelValueOf } from '../labels/label-value.js';
import type { ComponentIdentity, DecideContext, Limiter, LimiterKind, LimiterResult } from '../check/component.js';
import { readLabel } from '../labels/flow-reads.js';
import { RATE_LIMITER_INFO } from './limiter-details.js';
import type { TakeResult } from '@sluice/tokenbucket';
import type { TokenBucketStore } from '@sluice/tokenbucket';
import type { FlowLabels } from '@sluice/selectors';

export interface RateLimiterOptions {
  identity: ComponentIdentity;
  store: TokenBucketStore;
  /** One bucket per value of this label; a flow without it is accepted (KEY_NOT_FOUND). Unset: one bucket. */
  labelKey?: string;
  /**
   * Label holding the flow's cost in tokens. Default `tokens`. It is read from the context's
   * `costLabels` (for HTTP flows: classifier outputs only, never the client's baggage) unless
   * `tokensFromRequestLabels`. A cost is a finite number >= 1, rounded up to a whole token;
   * anything else (absent, 0, negative, a fraction below 1, not a number) costs 1.
   */
  tokensLabelKey?: string;
  /** Read the tokens label from every label of the flow, client-set ones included (opt in). */
  tokensFromRequestLabels?: boolean;
  /** Costs any finite number > 0 as it is, fractions included (opt in); still 1 for anything else. */
  fractionalTokens?: boolean;
  /** Let every flow through without taking tokens (until a decision arrives). */
  passThrough?: boolean;
}

const KEY_NOT_FOUND: LimiterResult = Object.freeze({ accepted: true, waitMs: 0, keyNotFound: true });
const PASS: LimiterResult = Object.freeze({ accepted: true, waitMs: 0 });
const DEFAULT_KEY = 'default';

/**
 * The rate limiter's kind: second group, 429 RATE_LIMITED, RateLimiterInfo; it reads its label
 * key, and its tokens label key when it takes costs from request labels.
 */
export const RATE_LIMITER_KIND: LimiterKind = {
  name: 'rate_limiter',
  group: 1,
  rejectReason: 'REJECT_REASON_RATE_LIMITED',
  deniedStatus: 429,
  counter: 'rate_limiter',
  details: RATE_LIMITER_INFO,
  reads(limiter, into) {
    if (!(limiter instanceof RateLimiter)) {
      into.all = true;
      return;
    }
    if (limiter.labelKey !== undefined) readLabel(into, limiter.labelKey);
    // The cost of an HTTP flow comes from classifier outputs only, unless the limiter opts into request labels.
    if (limiter.tokensFromRequestLabels) readLabel(into, limiter.tokensLabelKey);
  },
};

/** A token-bucket rate limiter (rejects with 429, RATE_LIMITED). */
export class RateLimiter implements Limiter {
  readonly kind = RATE_LIMITER_KIND;
  readonly identity: ComponentIdentity;
  readonly labelKey: string | undefined;
  readonly tokensLabelKey: string;
  readonly tokensFromRequestLabels: boolean;
  readonly fractionalTokens: boolean;
  passThrough: boolean;
  private readonly store: TokenBucketStore;

  constructor(opts: RateLimiterOptions) {
    this.identity = opts.identity;
    this.store = opts.store;
    this.labelKey = opts.labelKey === '' ? undefined : opts.labelKey;
    this.tokensLabelKey = opts.tokensLabelKey === undefined || opts.tokensLabelKey === '' ? 'tokens' : opts.tokensLabelKey;
    this.tokensFromRequestLabels = opts.tokensFromRequestLabels ?? false;
    this.fractionalTokens = opts.fractionalTokens ?? false;
    this.passThrough = opts.passThrough ?? false;
  }

  decide(labels: FlowLabels, ctx: DecideContext): LimiterResult | Promise<LimiterResult> {
    if (this.passThrough) return PASS;
    let key = DEFAULT_KEY;
    if (this.labelKey !== undefined) {
      const v = labelValueOf(labels, this.labelKey);
      if (v === undefined) return KEY_NOT_FOUND;
      key = v;
    }
    const costLabels = this.tokensFromRequestLabels ? labels : ctx.costLabels ?? labels;
    const tokens = tokensOf(labelValueOf(costLabels, this.tokensLabelKey), this.fractionalTokens);
    const r = this.store.take(key, tokens, ctx.nowMs);
    if (typeof (r as Promise<TakeResult>).then === 'function') return (r as Promise<TakeResult>).then((t) => toResult(t, key, tokens));
    return toResult(r as TakeResult, key, tokens);
  }

  revert(result: LimiterResult, ctx: DecideContext): void {
    if (result.label !== undefined && result.tokens !== undefined) this.store.giveBack(result.label, result.tokens, ctx.nowMs);
  }
}

/**
 * The cost of a flow from its tokens label: never below one token unless the limiter opts into
 * fractional costs, so a caller cannot make itself free (`tokens=0`, `1e-9`, `-5`, `NaN`).
 */
export function tokensOf(raw: string | undefined, fractional = false): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n)) return 1;
  if (fractional) return n > 0 ? n : 1;
  return n >= 1 ? Math.ceil(n) : 1;
}

function toResult(t: TakeResult, key: string, tokens: number): LimiterResult {
  return {
    accepted: t.ok,
    waitMs: t.ok ? 0 : t.waitMs,
    tokens: t.ok ? tokens : 0,
    label: key,
    remaining: t.remaining,
    current: t.current,
  };
}
