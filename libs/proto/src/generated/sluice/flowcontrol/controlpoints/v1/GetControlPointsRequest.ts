// Original file: proto/sluice/flowcontrol/controlpoints/v1/controlpoints.proto


export interface GetControlPointsRequest {
}

export interface GetControlPointsRequest__Output {
}
