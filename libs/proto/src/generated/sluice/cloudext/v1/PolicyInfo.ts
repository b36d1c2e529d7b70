// Original file: proto/sluice/cloudext/v1/heartbeat.proto


export interface PolicyInfo {
  'name'?: (string);
  'hash'?: (string);
}

export interface PolicyInfo__Output {
  'name': (string);
  'hash': (string);
}
