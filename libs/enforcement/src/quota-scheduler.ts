import type { PublishedComponent, PublishedRateLimiter } from '@sluice/policies';
import { QUOTA_SCHEDULER_KIND, QuotaScheduler } from '@sluice/scheduler';
import type { ComponentBuilder, LiveComponent } from './live-component.js';
import { flowKindEntry } from './flow-kind-entry.js';

/**
 * quota_scheduler: the agent's QuotaScheduler (503 NO_TOKENS) over a token bucket store made the
 * way a rate limiter's is (the distributed counter cache when the agent runs one: the quota is the
 * agent group's). It admits every flow until its first decision; a decision sets the bucket's
 * capacity and fill (existing buckets keep their tokens, capped) and pass-through in place, so
 * waiting flows stay queued. Replacing or removing the component turns its waiting flows away.
 */
export const buildQuotaScheduler: ComponentBuilder = (published: PublishedComponent, ctx): LiveComponent => {
  if (published.kind !== 'quota_scheduler') throw new TypeError(`not a quota_scheduler: ${published.kind}`);
  const p = published.rate_limiter;
  const params = (capacity: number, fillAmount: number) => ({ capacity, fillAmount, intervalMs: p.interval_ms, continuousFill: p.continuous_fill });
  // The bucket's owner as the store factory knows it: a rate limiter of the same identity and parameters.
  const bucket: PublishedRateLimiter = {
    kind: 'rate_limiter', policy_name: published.policy_name, policy_hash: published.policy_hash, component_id: published.component_id,
    agent_group: published.agent_group, selectors: published.selectors, parameters: p,
  };
  const store = ctx.tokenBucketStore(params(0, 0), bucket);
  const identity = { policy_name: published.policy_name, policy_hash: published.policy_hash, component_id: published.component_id };
  const scheduler = new QuotaScheduler({
    identity,
    parameters: published.scheduler,
    store,
    ...(p.label_key !== undefined && p.label_key !== '' ? { labelKey: p.label_key } : {}),
  });
  return {
    component: scheduler,
    setPolicyHash(hash) { identity.policy_hash = hash; },
    setDecision(decision) {
      if (decision === undefined) {
        scheduler.setPassThrough(true);
        return;
      }
      if (decision.kind !== 'quota_scheduler') {
        throw new TypeError(`${published.policy_name}/${published.component_id}: a ${decision.kind} decision does not fit a quota_scheduler`);
      }
      store.setParams(params(decision.bucket_capacity, decision.fill_amount));
      scheduler.setPassThrough(decision.pass_through);
      scheduler.bucketChanged();
    },
    shutdown: () => scheduler.shutdown(),
  };
};

/** The agent's entry of quota_scheduler (FLOW_KINDS lists it). */
export const quotaSchedulerFlowKind = flowKindEntry({ kind: 'quota_scheduler', limiter: QUOTA_SCHEDULER_KIND, build: buildQuotaScheduler });
