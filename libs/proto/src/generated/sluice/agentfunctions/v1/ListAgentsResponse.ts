// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto

import type { ConnectedAgent as _sluice_agentfunctions_v1_ConnectedAgent, ConnectedAgent__Output as _sluice_agentfunctions_v1_ConnectedAgent__Output } from '../../../sluice/agentfunctions/v1/ConnectedAgent.js';

export interface ListAgentsResponse {
  'agents'?: (_sluice_agentfunctions_v1_ConnectedAgent)[];
}

export interface ListAgentsResponse__Output {
  'agents': (_sluice_agentfunctions_v1_ConnectedAgent__Output)[];
}
