import { FluxMeterComponent, PolicyClassifier, RATE_LIMITER_KIND, RateLimiter, Sampler, SAMPLER_KIND } from '@sluice/flowcontrol';
import { LocalTokenBucketStore } from '@sluice/tokenbucket';
import type { PublishedComponent, PublishedDecision } from '@sluice/policies';
import type { ComponentBuilder, LiveComponent, TokenBucketStoreFactory } from './live-component.js';
import { flowKindEntry } from './flow-kind-entry.js';

/** The local token-bucket store, with the component's max idle time. */
export const localTokenBucketStore: TokenBucketStoreFactory = (params, component) =>
  new LocalTokenBucketStore(params, { maxIdleMs: component.parameters.max_idle_time_ms });

/** A component's identity, kept by the component by reference: setPolicyHash changes it in place. */
function identityOf(published: PublishedComponent & { component_id: string }): { policy_name: string; policy_hash: string; component_id: string } {
  return { policy_name: published.policy_name, policy_hash: published.policy_hash, component_id: published.component_id };
}

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
  const identity = identityOf(published);
  const limiter = new RateLimiter({
    identity,
    store,
    ...(p.label_key !== undefined && p.label_key !== '' ? { labelKey: p.label_key } : {}),
    ...(p.tokens_label_key !== undefined && p.tokens_label_key !== '' ? { tokensLabelKey: p.tokens_label_key } : {}),
    passThrough: true,
  });
  return {
    component: limiter,
    setPolicyHash(hash) { identity.policy_hash = hash; },
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

/** flux_meter: the engine's measuring flux meter (named in the check response; timed from check to flow end). */
export const buildFluxMeter: ComponentBuilder = (published): LiveComponent => {
  if (published.kind !== 'flux_meter') throw new TypeError(`not a flux_meter: ${published.kind}`);
  const meter = new FluxMeterComponent({
    name: published.name,
    policy_name: published.policy_name,
    policy_hash: published.policy_hash,
    ...(published.buckets.length > 0 ? { buckets: published.buckets } : {}),
    attribute_key: published.attribute_key,
  });
  return {
    component: meter,
    setDecision(decision) {
      if (decision !== undefined) throw wrongKind(published, decision);
    },
  };
};

/** sampler: pass-through until its first decision; a decision sets accept_percentage and pass_through in place. */
export const buildSampler: ComponentBuilder = (published): LiveComponent => {
  if (published.kind !== 'sampler') throw new TypeError(`not a sampler: ${published.kind}`);
  const identity = identityOf(published);
  const sampler = new Sampler({
    identity,
    ...(published.parameters.label_key !== undefined ? { labelKey: published.parameters.label_key } : {}),
    passThroughLabelValues: published.pass_through_label_values,
  });
  return {
    component: sampler,
    setPolicyHash(hash) { identity.policy_hash = hash; },
    setDecision(decision) {
      if (decision === undefined) {
        sampler.setDecision({ accept_percentage: 100, pass_through: true });
        return;
      }
      if (decision.kind !== 'sampler') throw wrongKind(published, decision);
      sampler.setDecision({ accept_percentage: decision.accept_percentage, pass_through: decision.pass_through });
    },
  };
};

/** classifier: its rules compiled once (a bad attribute path or JSON pointer refuses the component). */
export const buildClassifier: ComponentBuilder = (published): LiveComponent => {
  if (published.kind !== 'classifier') throw new TypeError(`not a classifier: ${published.kind}`);
  const classifier = new PolicyClassifier({
    identity: { policy_name: published.policy_name, policy_hash: published.policy_hash, classifier_index: published.classifier_index },
    rules: published.rules,
  });
  return {
    component: classifier,
    setDecision(decision) {
      if (decision !== undefined) throw wrongKind(published, decision);
    },
  };
};

/** The agent's entries of the kinds built here (FLOW_KINDS lists them). */
export const rateLimiterFlowKind = flowKindEntry({ kind: 'rate_limiter', limiter: RATE_LIMITER_KIND, build: buildRateLimiter });
export const samplerFlowKind = flowKindEntry({ kind: 'sampler', limiter: SAMPLER_KIND, build: buildSampler });
export const classifierFlowKind = flowKindEntry({ kind: 'classifier', limiter: undefined, build: buildClassifier });
export const fluxMeterFlowKind = flowKindEntry({ kind: 'flux_meter', limiter: undefined, build: buildFluxMeter });
