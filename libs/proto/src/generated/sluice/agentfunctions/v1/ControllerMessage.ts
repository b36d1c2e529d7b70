// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { FunctionCall as _sluice_agentfunctions_v1_FunctionCall, FunctionCall__Output as _sluice_agentfunctions_v1_FunctionCall__Output } from '../../../sluice/agentfunctions/v1/FunctionCall.js';

export interface ControllerMessage {
  'call'?: (_sluice_agentfunctions_v1_FunctionCall | null);
  'message'?: "call";
}

export interface ControllerMessage__Output {
  'call'?: (_sluice_agentfunctions_v1_FunctionCall__Output | null);
  'message'?: "call";
}
