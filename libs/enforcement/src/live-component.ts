import type { FlowComponent } from '@sluice/flowcontrol';
import type { TokenBucketParams, TokenBucketStore } from '@sluice/tokenbucket';
import type { Registry } from 'prom-client';
import type { PublishedComponent, PublishedDecision, PublishedRateLimiter } from '@sluice/policies';

/** A component built from its published configuration, registered in the engine and updated in place. */
export interface LiveComponent {
  /** Absent for a component that selects no flows (the pod scaler acts outside the engine). */
  readonly component?: FlowComponent;
  /**
   * Applies a decision without re-registering; undefined (none published
   * yet, or removed) means pass-through. Throws when the decision does not fit
   * the component (another kind), changing nothing.
   */
  setDecision(decision: PublishedDecision | undefined): void;
  /**
   * Takes the policy's new hash in place (the identity in check responses and metrics), when a new
   * configuration differs from the live one by nothing else; without it the component is replaced.
   */
  setPolicyHash?(policyHash: string): void;
  /** Called once after the component is unregistered (a scheduler turns its waiting flows away). */
  shutdown?(): Promise<void>;
}

/** Makes the token-bucket store of a published rate limiter (the local store by default; later the distributed cache). */
export type TokenBucketStoreFactory = (params: TokenBucketParams, component: PublishedRateLimiter) => TokenBucketStore;

export interface BuildContext {
  tokenBucketStore: TokenBucketStoreFactory;
  /** Where components register their metrics (the agent's registry). */
  registry?: Registry;
}

/** Builds the live component of one kind; throws (an InvalidArgumentError, say) for a configuration it cannot use. */
export type ComponentBuilder = (published: PublishedComponent, ctx: BuildContext) => LiveComponent;

/** Builders by component kind; a kind without one is logged and skipped. */
export type ComponentBuilders = Partial<Record<PublishedComponent['kind'], ComponentBuilder>>;
