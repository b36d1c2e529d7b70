// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';
import type { FunctionError as _sluice_agentfunctions_v1_FunctionError, FunctionError__Output as _sluice_agentfunctions_v1_FunctionError__Output } from '../../../sluice/agentfunctions/v1/FunctionError.js';
import type { Long } from '@grpc/proto-loader';

export interface FunctionResult {
  'call_id'?: (number | string | Long);
  'result'?: (_google_protobuf_Struct | null);
  'error'?: (_sluice_agentfunctions_v1_FunctionError | null);
}

export interface FunctionResult__Output {
  'call_id': (number);
  'result': (_google_protobuf_Struct__Output | null);
  'error': (_sluice_agentfunctions_v1_FunctionError__Output | null);
}
