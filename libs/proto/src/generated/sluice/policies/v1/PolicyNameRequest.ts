// Original file: proto/sluice/policies/v1/policies.proto


export interface PolicyNameRequest {
  'name'?: (string);
}

export interface PolicyNameRequest__Output {
  'name': (string);
}
