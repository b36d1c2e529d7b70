// Original file: proto/sluice/policies/v1/policies.proto


export interface ListPoliciesRequest {
}

export interface ListPoliciesRequest__Output {
}
