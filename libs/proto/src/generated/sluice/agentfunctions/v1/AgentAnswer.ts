// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface AgentAnswer {
  'agent_name'?: (string);
  /**
   * The HTTP status the agent's route answered.
   */
  'status'?: (number);
  'body'?: (_google_protobuf_Value | null);
}

export interface AgentAnswer__Output {
  'agent_name': (string);
  /**
   * The HTTP status the agent's route answered.
   */
  'status': (number);
  'body': (_google_protobuf_Value__Output | null);
}
