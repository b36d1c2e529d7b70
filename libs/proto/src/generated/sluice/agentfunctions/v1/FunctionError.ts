// Original file: proto/sluice/agentfunctions/v1/agentfunctions.proto


export interface FunctionError {
  /**
   * A google.rpc.Code.
   */
  'code'?: (number);
  'message'?: (string);
}

export interface FunctionError__Output {
  /**
   * A google.rpc.Code.
   */
  'code': (number);
  'message': (string);
}
