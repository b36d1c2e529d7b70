// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { AgentHello as _sluice_agentfunctions_v1_AgentHello, AgentHello__Output as _sluice_agentfunctions_v1_AgentHello__Output } from '../../../sluice/agentfunctions/v1/AgentHello.js';
import type { FunctionResult as _sluice_agentfunctions_v1_FunctionResult, FunctionResult__Output as _sluice_agentfunctions_v1_FunctionResult__Output } from '../../../sluice/agentfunctions/v1/FunctionResult.js';

export interface AgentMessage {
  'hello'?: (_sluice_agentfunctions_v1_AgentHello | null);
  'result'?: (_sluice_agentfunctions_v1_FunctionResult | null);
  'message'?: "hello"|"result";
}

export interface AgentMessage__Output {
  'hello'?: (_sluice_agentfunctions_v1_AgentHello__Output | null);
  'result'?: (_sluice_agentfunctions_v1_FunctionResult__Output | null);
  'message'?: "hello"|"result";
}
