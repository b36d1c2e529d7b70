// Original file: proto/aperture/flowcontrol/check/v1/check.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CacheDeleteRequest as _aperture_flowcontrol_check_v1_CacheDeleteRequest, CacheDeleteRequest__Output as _aperture_flowcontrol_check_v1_CacheDeleteRequest__Output } from '../../../../aperture/flowcontrol/check/v1/CacheDeleteRequest.js';
import type { CacheDeleteResponse as _aperture_flowcontrol_check_v1_CacheDeleteResponse, CacheDeleteResponse__Output as _aperture_flowcontrol_check_v1_CacheDeleteResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CacheDeleteResponse.js';
import type { CacheLookupRequest as _aperture_flowcontrol_check_v1_CacheLookupRequest, CacheLookupRequest__Output as _aperture_flowcontrol_check_v1_CacheLookupRequest__Output } from '../../../../aperture/flowcontrol/check/v1/CacheLookupRequest.js';
import type { CacheLookupResponse as _aperture_flowcontrol_check_v1_CacheLookupResponse, CacheLookupResponse__Output as _aperture_flowcontrol_check_v1_CacheLookupResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CacheLookupResponse.js';
import type { CacheUpsertRequest as _aperture_flowcontrol_check_v1_CacheUpsertRequest, CacheUpsertRequest__Output as _aperture_flowcontrol_check_v1_CacheUpsertRequest__Output } from '../../../../aperture/flowcontrol/check/v1/CacheUpsertRequest.js';
import type { CacheUpsertResponse as _aperture_flowcontrol_check_v1_CacheUpsertResponse, CacheUpsertResponse__Output as _aperture_flowcontrol_check_v1_CacheUpsertResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CacheUpsertResponse.js';
import type { CheckRequest as _aperture_flowcontrol_check_v1_CheckRequest, CheckRequest__Output as _aperture_flowcontrol_check_v1_CheckRequest__Output } from '../../../../aperture/flowcontrol/check/v1/CheckRequest.js';
import type { CheckResponse as _aperture_flowcontrol_check_v1_CheckResponse, CheckResponse__Output as _aperture_flowcontrol_check_v1_CheckResponse__Output } from '../../../../aperture/flowcontrol/check/v1/CheckResponse.js';
import type { FlowEndRequest as _aperture_flowcontrol_check_v1_FlowEndRequest, FlowEndRequest__Output as _aperture_flowcontrol_check_v1_FlowEndRequest__Output } from '../../../../aperture/flowcontrol/check/v1/FlowEndRequest.js';
import type { FlowEndResponse as _aperture_flowcontrol_check_v1_FlowEndResponse, FlowEndResponse__Output as _aperture_flowcontrol_check_v1_FlowEndResponse__Output } from '../../../../aperture/flowcontrol/check/v1/FlowEndResponse.js';

export interface FlowControlServiceClient extends grpc.Client {
  CacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  CacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  CacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  CacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  cacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  cacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  cacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  cacheDelete(argument: _aperture_flowcontrol_check_v1_CacheDeleteRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>): grpc.ClientUnaryCall;
  
  CacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  CacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  CacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  CacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  cacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  cacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  cacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  cacheLookup(argument: _aperture_flowcontrol_check_v1_CacheLookupRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheLookupResponse__Output>): grpc.ClientUnaryCall;
  
  CacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  CacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  CacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  CacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  cacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  cacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  cacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  cacheUpsert(argument: _aperture_flowcontrol_check_v1_CacheUpsertRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Check decides whether a flow at a control point is accepted or rejected.
   */
  Check(argument: _aperture_flowcontrol_check_v1_CheckRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _aperture_flowcontrol_check_v1_CheckRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _aperture_flowcontrol_check_v1_CheckRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  Check(argument: _aperture_flowcontrol_check_v1_CheckRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Check decides whether a flow at a control point is accepted or rejected.
   */
  check(argument: _aperture_flowcontrol_check_v1_CheckRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _aperture_flowcontrol_check_v1_CheckRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _aperture_flowcontrol_check_v1_CheckRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  check(argument: _aperture_flowcontrol_check_v1_CheckRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_CheckResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * FlowEnd reports that a flow admitted with expect_end has finished.
   */
  FlowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  FlowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  FlowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  FlowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  /**
   * FlowEnd reports that a flow admitted with expect_end has finished.
   */
  flowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  flowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  flowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  flowEnd(argument: _aperture_flowcontrol_check_v1_FlowEndRequest, callback: grpc.requestCallback<_aperture_flowcontrol_check_v1_FlowEndResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface FlowControlServiceHandlers extends grpc.UntypedServiceImplementation {
  CacheDelete: grpc.handleUnaryCall<_aperture_flowcontrol_check_v1_CacheDeleteRequest__Output, _aperture_flowcontrol_check_v1_CacheDeleteResponse>;
  
  CacheLookup: grpc.handleUnaryCall<_aperture_flowcontrol_check_v1_CacheLookupRequest__Output, _aperture_flowcontrol_check_v1_CacheLookupResponse>;
  
  CacheUpsert: grpc.handleUnaryCall<_aperture_flowcontrol_check_v1_CacheUpsertRequest__Output, _aperture_flowcontrol_check_v1_CacheUpsertResponse>;
  
  /**
   * Check decides whether a flow at a control point is accepted or rejected.
   */
  Check: grpc.handleUnaryCall<_aperture_flowcontrol_check_v1_CheckRequest__Output, _aperture_flowcontrol_check_v1_CheckResponse>;
  
  /**
   * FlowEnd reports that a flow admitted with expect_end has finished.
   */
  FlowEnd: grpc.handleUnaryCall<_aperture_flowcontrol_check_v1_FlowEndRequest__Output, _aperture_flowcontrol_check_v1_FlowEndResponse>;
  
}

export interface FlowControlServiceDefinition extends grpc.ServiceDefinition {
  CacheDelete: MethodDefinition<_aperture_flowcontrol_check_v1_CacheDeleteRequest, _aperture_flowcontrol_check_v1_CacheDeleteResponse, _aperture_flowcontrol_check_v1_CacheDeleteRequest__Output, _aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>
  CacheLookup: MethodDefinition<_aperture_flowcontrol_check_v1_CacheLookupRequest, _aperture_flowcontrol_check_v1_CacheLookupResponse, _aperture_flowcontrol_check_v1_CacheLookupRequest__Output, _aperture_flowcontrol_check_v1_CacheLookupResponse__Output>
  CacheUpsert: MethodDefinition<_aperture_flowcontrol_check_v1_CacheUpsertRequest, _aperture_flowcontrol_check_v1_CacheUpsertResponse, _aperture_flowcontrol_check_v1_CacheUpsertRequest__Output, _aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>
  Check: MethodDefinition<_aperture_flowcontrol_check_v1_CheckRequest, _aperture_flowcontrol_check_v1_CheckResponse, _aperture_flowcontrol_check_v1_CheckRequest__Output, _aperture_flowcontrol_check_v1_CheckResponse__Output>
  FlowEnd: MethodDefinition<_aperture_flowcontrol_check_v1_FlowEndRequest, _aperture_flowcontrol_check_v1_FlowEndResponse, _aperture_flowcontrol_check_v1_FlowEndRequest__Output, _aperture_flowcontrol_check_v1_FlowEndResponse__Output>
}
