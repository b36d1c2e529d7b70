// Original file: proto/sluice/policies/v1/policies.proto

import type { Policy as _sluice_policies_v1_Policy, Policy__Output as _sluice_policies_v1_Policy__Output } from '../../../sluice/policies/v1/Policy.js';

export interface ListPoliciesResponse {
  'policies'?: (_sluice_policies_v1_Policy)[];
}

export interface ListPoliciesResponse__Output {
  'policies': (_sluice_policies_v1_Policy__Output)[];
}
