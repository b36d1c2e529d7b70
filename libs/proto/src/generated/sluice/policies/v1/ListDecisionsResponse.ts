// Original file: proto/sluice/policies/v1/policies.proto

import type { PublishedDecisionEntry as _sluice_policies_v1_PublishedDecisionEntry, PublishedDecisionEntry__Output as _sluice_policies_v1_PublishedDecisionEntry__Output } from '../../../sluice/policies/v1/PublishedDecisionEntry.js';

export interface ListDecisionsResponse {
  'decisions'?: (_sluice_policies_v1_PublishedDecisionEntry)[];
}

export interface ListDecisionsResponse__Output {
  'decisions': (_sluice_policies_v1_PublishedDecisionEntry__Output)[];
}
