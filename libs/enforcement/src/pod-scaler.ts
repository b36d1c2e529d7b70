import type { PublishedComponent, PublishedDecision } from '@sluice/policies';
import type { ComponentBuilder, LiveComponent } from './live-component.js';
import { flowKindEntry } from './flow-kind-entry.js';

/**
 * pod_scaler: no flow component. The agent's pod scaler (libs/kube scale, wired when
 * `auto_scale.kubernetes.enabled`) follows it through `PolicyEnforcement.subscribe` and writes /scale; here the component is
 * accepted, listed among the enforced ones with its decision, and a decision of another kind is refused.
 */
export const buildPodScaler: ComponentBuilder = (published: PublishedComponent): LiveComponent => {
  if (published.kind !== 'pod_scaler') throw new TypeError(`not a pod_scaler: ${published.kind}`);
  return {
    setDecision(decision: PublishedDecision | undefined) {
      if (decision !== undefined && decision.kind !== 'pod_scaler') {
        throw new TypeError(`${published.policy_name}/${published.component_id}: a ${decision.kind} decision does not fit a pod_scaler`);
      }
    },
  };
};

/** The agent's entry of pod_scaler (FLOW_KINDS lists it): no flow component. */
export const podScalerFlowKind = flowKindEntry({ kind: 'pod_scaler', limiter: undefined, build: buildPodScaler });
