// Original file: proto/sluice/cloudext/v1/heartbeat.proto


export interface ReportResponse {
}

export interface ReportResponse__Output {
}
