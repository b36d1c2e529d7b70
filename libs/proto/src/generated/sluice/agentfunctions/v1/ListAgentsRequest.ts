// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto


export interface ListAgentsRequest {
}

export interface ListAgentsRequest__Output {
}
