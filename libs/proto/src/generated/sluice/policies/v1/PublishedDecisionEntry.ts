// Original file: proto/sluice/policies/v1/policies.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface PublishedDecisionEntry {
  'policy_name'?: (string);
  'component_id'?: (string);
  'agent_group'?: (string);
  /**
   * The etcd key the decision is published under.
   */
  'key'?: (string);
  /**
   * The PublishedDecision, as the agents read it.
   */
  'decision'?: (_google_protobuf_Struct | null);
}

export interface PublishedDecisionEntry__Output {
  'policy_name': (string);
  'component_id': (string);
  'agent_group': (string);
  /**
   * The etcd key the decision is published under.
   */
  'key': (string);
  /**
   * The PublishedDecision, as the agents read it.
   */
  'decision': (_google_protobuf_Struct__Output | null);
}
