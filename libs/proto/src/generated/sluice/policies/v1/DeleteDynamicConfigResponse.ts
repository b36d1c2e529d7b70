// Original file: proto/sluice/policies/v1/policies.proto


export interface DeleteDynamicConfigResponse {
}

export interface DeleteDynamicConfigResponse__Output {
}
