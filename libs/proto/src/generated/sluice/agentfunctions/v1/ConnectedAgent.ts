// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto


export interface ConnectedAgent {
  'agent_group'?: (string);
  'agent_name'?: (string);
  'address'?: (string);
  'version'?: (string);
  'functions'?: (string)[];
  /**
   * RFC 3339.
   */
  'connected_at'?: (string);
}

export interface ConnectedAgent__Output {
  'agent_group': (string);
  'agent_name': (string);
  'address': (string);
  'version': (string);
  'functions': (string)[];
  /**
   * RFC 3339.
   */
  'connected_at': (string);
}
