import type { PublishedDecision } from '@sluice/policies';
import { LOAD_SCHEDULER_KIND, LoadScheduler, schedulerMetrics } from '@sluice/scheduler';
import type { ComponentBuilder, LiveComponent } from './live-component.js';
import { flowKindEntry } from './flow-kind-entry.js';

function wrongKind(policy: string, id: string, decision: PublishedDecision): Error {
  return new TypeError(`${policy}/${id}: a ${decision.kind} decision does not fit a load_scheduler`);
}

/**
 * load_scheduler: the agent's LoadScheduler (503 NO_TOKENS) over the published parameters (a bad
 * one refuses the component with the member at fault). It admits every flow until its first
 * decision; a decision sets the load multiplier and pass-through in place, so waiting flows stay
 * queued across decisions. Replacing or removing the component turns its waiting flows away.
 */
export const buildLoadScheduler: ComponentBuilder = (published, ctx): LiveComponent => {
  if (published.kind !== 'load_scheduler') throw new TypeError(`not a load_scheduler: ${published.kind}`);
  const identity = { policy_name: published.policy_name, policy_hash: published.policy_hash, component_id: published.component_id };
  const scheduler = new LoadScheduler({
    identity,
    parameters: published.parameters,
    ...(ctx.registry !== undefined ? { metrics: schedulerMetrics(ctx.registry) } : {}),
  });
  return {
    component: scheduler,
    setPolicyHash(hash) { identity.policy_hash = hash; },
    setDecision(decision) {
      if (decision === undefined) {
        scheduler.setDecision({ load_multiplier: 1, pass_through: true });
        return;
      }
      if (decision.kind !== 'load_scheduler') throw wrongKind(published.policy_name, published.component_id, decision);
      scheduler.setDecision({ load_multiplier: decision.load_multiplier, pass_through: decision.pass_through });
    },
    shutdown: () => scheduler.shutdown(),
  };
};

/** The agent's entry of load_scheduler (FLOW_KINDS lists it). */
export const loadSchedulerFlowKind = flowKindEntry({ kind: 'load_scheduler', limiter: LOAD_SCHEDULER_KIND, build: buildLoadScheduler });
