// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto


export interface AgentHello {
  'agent_group'?: (string);
  /**
   * Unique among the agents of one controller: the host name and the agent's port.
   */
  'agent_name'?: (string);
  /**
   * The agent's own server address (for people; the controller never dials it).
   */
  'address'?: (string);
  'version'?: (string);
  /**
   * The functions it serves ("http": a read-only HTTP route of the agent, run in process).
   */
  'functions'?: (string)[];
}

export interface AgentHello__Output {
  'agent_group': (string);
  /**
   * Unique among the agents of one controller: the host name and the agent's port.
   */
  'agent_name': (string);
  /**
   * The agent's own server address (for people; the controller never dials it).
   */
  'address': (string);
  'version': (string);
  /**
   * The functions it serves ("http": a read-only HTTP route of the agent, run in process).
   */
  'functions': (string)[];
}
