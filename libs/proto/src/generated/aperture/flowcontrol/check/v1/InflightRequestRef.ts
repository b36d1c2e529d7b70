// Original file: proto/aperture/flowcontrol/check/v1/check.proto


export interface InflightRequestRef {
  'policy_name'?: (string);
  'policy_hash'?: (string);
  'component_id'?: (string);
  'label'?: (string);
  'request_id'?: (string);
  'tokens'?: (number | string);
}

export interface InflightRequestRef__Output {
  'policy_name': (string);
  'policy_hash': (string);
  'component_id': (string);
  'label': (string);
  'request_id': (string);
  'tokens': (number);
}
