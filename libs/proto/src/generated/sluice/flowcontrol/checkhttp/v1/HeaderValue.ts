// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto


export interface HeaderValue {
  'key'?: (string);
  'value'?: (string);
}

export interface HeaderValue__Output {
  'key': (string);
  'value': (string);
}
