// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { AgentAnswer as _sluice_agentfunctions_v1_AgentAnswer, AgentAnswer__Output as _sluice_agentfunctions_v1_AgentAnswer__Output } from '../../../sluice/agentfunctions/v1/AgentAnswer.js';
import type { MissingAgent as _sluice_agentfunctions_v1_MissingAgent, MissingAgent__Output as _sluice_agentfunctions_v1_MissingAgent__Output } from '../../../sluice/agentfunctions/v1/MissingAgent.js';

export interface CallAgentsResponse {
  'agent_group'?: (string);
  'answers'?: (_sluice_agentfunctions_v1_AgentAnswer)[];
  /**
   * Agents that did not answer in time, or whose answer would pass the size bound.
   */
  'missing'?: (_sluice_agentfunctions_v1_MissingAgent)[];
}

export interface CallAgentsResponse__Output {
  'agent_group': (string);
  'answers': (_sluice_agentfunctions_v1_AgentAnswer__Output)[];
  /**
   * Agents that did not answer in time, or whose answer would pass the size bound.
   */
  'missing': (_sluice_agentfunctions_v1_MissingAgent__Output)[];
}
