// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { Long } from '@grpc/proto-loader';

export interface FunctionCall {
  'call_id'?: (number | string | Long);
  'function'?: (string);
  'args'?: (_google_protobuf_Struct | null);
  /**
   * When the controller stops waiting (unix milliseconds); the agent cancels the call then.
   */
  'deadline_unix_ms'?: (number | string | Long);
}

export interface FunctionCall__Output {
  'call_id': (number);
  'function': (string);
  'args': (_google_protobuf_Struct__Output | null);
  /**
   * When the controller stops waiting (unix milliseconds); the agent cancels the call then.
   */
  'deadline_unix_ms': (number);
}
