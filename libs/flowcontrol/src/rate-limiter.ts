import { labelValueOf } from './label-value.js';
import type { ComponentIdentity, DecideContext, Limiter, LimiterResult } from './component.js';
import type { TakeResult } from './token-bucket.js';
import type { TokenBucketStore } from './token-bucket-store.js';
import type { FlowLabels } from '@sluice/selectors';

export interface RateLimiterOptions {
  identity: ComponentIdentity;
  store: TokenBucketStore;
  /** One bucket per value of this label; a flow without it is accepted (KEY_NOT_FOUND). Unset: one bucket. */
  labelKey?: string;
  /** Label holding the flow's cost in tokens. Default `tokens`; absent or invalid: 1. */
  tokensLabelKey?: string;
  /** Let every flow through without taking tokens (until a decision arrives). */
  passThrough?: boolean;
}

const KEY_NOT_FOUND: LimiterResult = Object.freeze({ accepted: true, waitMs: 0, keyNotFound: true });
const PASS: LimiterResult = Object.freeze({ accepted: true, waitMs: 0 });
const DEFAULT_KEY = 'default';

/** A token-bucket rate limiter (rejects with 429, RATE_LIMITED). */
export class RateLimiter implements Limiter {
  readonly kind = 'rate_limiter' as const;
  readonly identity: ComponentIdentity;
  readonly labelKey: string | undefined;
  readonly tokensLabelKey: string;
  passThrough: boolean;
  private readonly store: TokenBucketStore;

  constructor(opts: RateLimiterOptions) {
    this.identity = opts.identity;
    this.store = opts.store;
    this.labelKey = opts.labelKey === '' ? undefined : opts.labelKey;
    this.tokensLabelKey = opts.tokensLabelKey === undefined || opts.tokensLabelKey === '' ? 'tokens' : opts.tokensLabelKey;
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
    const tokens = tokensOf(labelValueOf(labels, this.tokensLabelKey));
    const r = this.store.take(key, tokens, ctx.nowMs);
    if (typeof (r as Promise<TakeResult>).then === 'function') return (r as Promise<TakeResult>).then((t) => toResult(t, key, tokens));
    return toResult(r as TakeResult, key, tokens);
  }

  revert(result: LimiterResult, ctx: DecideContext): void {
    if (result.label !== undefined && result.tokens !== undefined) this.store.giveBack(result.label, result.tokens, ctx.nowMs);
  }
}

function tokensOf(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const n = Number(raw);
  return raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : 1;
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
