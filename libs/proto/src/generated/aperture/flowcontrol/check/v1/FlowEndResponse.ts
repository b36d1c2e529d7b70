// Original file: proto/aperture/flowcontrol/check/v1/check.proto


export interface FlowEndResponse {
}

export interface FlowEndResponse__Output {
}
