import { LocalTokenBucketStore, RateLimiter, type FluxMeter } from '@sluice/flowcontrol';
import type { PublishedComponent, PublishedDecision } from '@sluice/policies';
import type { ComponentBuilder, ComponentBuilders, LiveComponent, TokenBucketStoreFactory } from './live-component.js';

/** The local token-bucket store, with the component's max idle time. */
export const localTokenBucketStore: TokenBucketStoreFactory = (params, component) =>
  new LocalTokenBucketStore(params, { maxIdleMs: component.parameters.max_idle_time_ms });

function wrongKind(published: PublishedComponent, decision: PublishedDecision): Error {
  return new TypeError(`${published.policy_name}/${published.component_id}: a ${decision.kind} decision does not fit a ${published.kind}`);
}

/**
 * rate_limiter: a RateLimiter over the store the factory makes. Until its
 * first decision it lets everything through; a decision sets the bucket's
 * parameters (existing buckets keep their tokens, capped) and pass-through.
 */
export const buildRateLimiter: ComponentBuilder = (published, ctx): LiveComponent => {
  if (published.kind !== 'rate_limiter') throw new TypeError(`not a rate_limiter: ${published.kind}`);
  const p = published.parameters;
  const params = (capacity: number, fillAmount: number) => ({ capacity, fillAmount, intervalMs: p.interval_ms, continuousFill: p.continuous_fill });
  const store = ctx.tokenBucketStore(params(0, 0), published);
  const limiter = new RateLimiter({
    identity: { policy_name: published.policy_name, policy_hash: published.policy_hash, component_id: published.component_id },
    store,
    ...(p.label_key !== undefined && p.label_key !== '' ? { labelKey: p.label_key } : {}),
    ...(p.tokens_label_key !== undefined && p.tokens_label_key !== '' ? { tokensLabelKey: p.tokens_label_key } : {}),
    passThrough: true,
  });
  return {
    component: limiter,
    setDecision(decision) {
      if (decision === undefined) {
        limiter.passThrough = true;
        return;
      }
      if (decision.kind !== 'rate_limiter') throw wrongKind(published, decision);
      store.setParams(params(decision.bucket_capacity, decision.fill_amount));
      limiter.passThrough = decision.pass_through;
    },
  };
};

/** flux_meter: names the meter in the check response of the flows it selects (the histogram is recorded at flow end). */
export const buildFluxMeter: ComponentBuilder = (published): LiveComponent => {
  if (published.kind !== 'flux_meter') throw new TypeError(`not a flux_meter: ${published.kind}`);
  const meter: FluxMeter = { kind: 'flux_meter', name: published.name };
  return {
    component: meter,
    setDecision(decision) {
      if (decision !== undefined) throw wrongKind(published, decision);
    },
  };
};

/** The builders available in this lib; sampler and classifier builders are added by the caller when given. */
export const DEFAULT_BUILDERS: ComponentBuilders = {
  rate_limiter: buildRateLimiter,
  flux_meter: buildFluxMeter,
};
