// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto


export interface MissingAgent {
  'agent_name'?: (string);
  'error'?: (string);
}

export interface MissingAgent__Output {
  'agent_name': (string);
  'error': (string);
}
