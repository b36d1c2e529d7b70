// Original file: proto/sluice/policies/v1/policies.proto


export interface SetVariableRequest {
  'name'?: (string);
  'signal'?: (string);
  'value'?: (number | string);
}

export interface SetVariableRequest__Output {
  'name': (string);
  'signal': (string);
  'value': (number);
}
