import type { ComponentIdentity, LimiterKind, LimiterResult } from './component.js';
import type { CheckResponse_RejectReason__Output as RejectReason } from '@sluice/proto';

export interface LimiterRecord {
  readonly kind: LimiterKind;
  readonly identity: ComponentIdentity;
  readonly result: LimiterResult;
}

export interface ClassifierRecord {
  readonly policy_name: string;
  readonly policy_hash: string;
  readonly classifier_index: number;
  readonly failed: boolean;
}

/** The engine's answer for one flow. */
export interface CheckDecision {
  readonly controlPoint: string;
  readonly services: readonly string[];
  /** The labels after classification. */
  readonly labels: Readonly<Record<string, string>>;
  /** Labels the classifiers added (undefined when none). */
  readonly addedLabels: Readonly<Record<string, string>> | undefined;
  /** Added labels that stay out of baggage and telemetry (set last by a rule with `telemetry: false`); undefined when none. */
  readonly hiddenLabels?: ReadonlySet<string>;
  readonly startMs: number;
  readonly endMs: number;
  readonly accepted: boolean;
  readonly rejectReason: RejectReason;
  /** HTTP status of a denial (the rejecting limiter's kind says which: 403 sampler, 429 rate limiter, 503 scheduler); 0 when accepted. */
  readonly deniedStatus: 0 | 403 | 429 | 503;
  /** The largest wait any limiter reported. */
  readonly waitMs: number;
  readonly limiters: readonly LimiterRecord[];
  readonly classifiers: readonly ClassifierRecord[];
  readonly fluxMeters: readonly string[];
}
