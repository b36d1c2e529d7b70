// Original file: proto/sluice/policies/v1/policies.proto


export interface DeletePolicyResponse {
}

export interface DeletePolicyResponse__Output {
}
