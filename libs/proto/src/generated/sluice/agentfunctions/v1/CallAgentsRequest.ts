// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value.js';

export interface CallAgentsRequest {
  'agent_group'?: (string);
  /**
   * One agent of the group; empty: every agent of the group.
   */
  'agent_name'?: (string);
  /**
   * GET or POST.
   */
  'method'?: (string);
  /**
   * The agent's route with its query, e.g. /v1/flowcontrol/preview/http_requests/ingress?samples=5.
   */
  'path'?: (string);
  /**
   * The JSON body of a POST.
   */
  'body'?: (_google_protobuf_Value | null);
}

export interface CallAgentsRequest__Output {
  'agent_group': (string);
  /**
   * One agent of the group; empty: every agent of the group.
   */
  'agent_name': (string);
  /**
   * GET or POST.
   */
  'method': (string);
  /**
   * The agent's route with its query, e.g. /v1/flowcontrol/preview/http_requests/ingress?samples=5.
   */
  'path': (string);
  /**
   * The JSON body of a POST.
   */
  'body': (_google_protobuf_Value__Output | null);
}
