// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckHTTPRequest as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, CheckHTTPRequest__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPRequest.js';
import type { CheckHTTPResponse as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse, CheckHTTPResponse__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPResponse.js';
import type { CheckHTTPStreamRequest as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, CheckHTTPStreamRequest__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPStreamRequest.js';
import type { CheckHTTPStreamResponse as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse, CheckHTTPStreamResponse__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output } from '../../../../sluice/flowcontrol/checkhttp/v1/CheckHTTPStreamResponse.js';

export interface FlowControlServiceHTTPClient extends grpc.Client {
  CheckHTTP(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  CheckHTTP(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  checkHttp(argument: _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, callback: grpc.requestCallback<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Many checks on one long-lived stream: each request carries an id chosen
   * by the caller, each answer the id it answers. Answers may come in any
   * order. A request that cannot be decided (invalid, or past the stream's
   * in-flight bound) is answered with code/message for its id; the stream
   * goes on.
   */
  CheckHTTPStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>;
  CheckHTTPStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>;
  /**
   * Many checks on one long-lived stream: each request carries an id chosen
   * by the caller, each answer the id it answers. Answers may come in any
   * order. A request that cannot be decided (invalid, or past the stream's
   * in-flight bound) is answered with code/message for its id; the stream
   * goes on.
   */
  checkHttpStream(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>;
  checkHttpStream(options?: grpc.CallOptions): grpc.ClientDuplexStream<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>;
  
}

export interface FlowControlServiceHTTPHandlers extends grpc.UntypedServiceImplementation {
  CheckHTTP: grpc.handleUnaryCall<_sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output, _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse>;
  
  /**
   * Many checks on one long-lived stream: each request carries an id chosen
   * by the caller, each answer the id it answers. Answers may come in any
   * order. A request that cannot be decided (invalid, or past the stream's
   * in-flight bound) is answered with code/message for its id; the stream
   * goes on.
   */
  CheckHTTPStream: grpc.handleBidiStreamingCall<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest__Output, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse>;
  
}

export interface FlowControlServiceHTTPDefinition extends grpc.ServiceDefinition {
  CheckHTTP: MethodDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse, _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output, _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>
  CheckHTTPStream: MethodDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest__Output, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>
}
