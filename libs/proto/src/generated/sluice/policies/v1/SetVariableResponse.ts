// Original file: proto/sluice/policies/v1/policies.proto


export interface SetVariableResponse {
  'name'?: (string);
  'signal'?: (string);
  'value'?: (number | string);
}

export interface SetVariableResponse__Output {
  'name': (string);
  'signal': (string);
  'value': (number);
}
