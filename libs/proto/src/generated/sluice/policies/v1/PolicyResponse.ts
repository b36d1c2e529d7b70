// Original file: proto/sluice/policies/v1/policies.proto

import type { Policy as _sluice_policies_v1_Policy, Policy__Output as _sluice_policies_v1_Policy__Output } from '../../../sluice/policies/v1/Policy.js';

export interface PolicyResponse {
  'policy'?: (_sluice_policies_v1_Policy | null);
}

export interface PolicyResponse__Output {
  'policy': (_sluice_policies_v1_Policy__Output | null);
}
