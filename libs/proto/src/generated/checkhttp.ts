import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CacheDeleteRequest as _aperture_flowcontrol_check_v1_CacheDeleteRequest, CacheDeleteRequest__Output as _aperture_flowcontrol_check_v1_CacheDeleteRequest__Output } from './aperture/flowcontrol/check/v1/CacheDeleteRequest.js';
import type { CacheDeleteResponse as _aperture_flowcontrol_check_v1_CacheDeleteResponse, CacheDeleteResponse__Output as _aperture_flowcontrol_check_v1_CacheDeleteResponse__Output } from './aperture/flowcontrol/check/v1/CacheDeleteResponse.js';
import type { CacheEntry as _aperture_flowcontrol_check_v1_CacheEntry, CacheEntry__Output as _aperture_flowcontrol_check_v1_CacheEntry__Output } from './aperture/flowcontrol/check/v1/CacheEntry.js';
import type { CacheLookupRequest as _aperture_flowcontrol_check_v1_CacheLookupRequest, CacheLookupRequest__Output as _aperture_flowcontrol_check_v1_CacheLookupRequest__Output } from './aperture/flowcontrol/check/v1/CacheLookupRequest.js';
import type { CacheLookupResponse as _aperture_flowcontrol_check_v1_CacheLookupResponse, CacheLookupResponse__Output as _aperture_flowcontrol_check_v1_CacheLookupResponse__Output } from './aperture/flowcontrol/check/v1/CacheLookupResponse.js';
import type { CacheUpsertRequest as _aperture_flowcontrol_check_v1_CacheUpsertRequest, CacheUpsertRequest__Output as _aperture_flowcontrol_check_v1_CacheUpsertRequest__Output } from './aperture/flowcontrol/check/v1/CacheUpsertRequest.js';
import type { CacheUpsertResponse as _aperture_flowcontrol_check_v1_CacheUpsertResponse, CacheUpsertResponse__Output as _aperture_flowcontrol_check_v1_CacheUpsertResponse__Output } from './aperture/flowcontrol/check/v1/CacheUpsertResponse.js';
import type { CheckRequest as _aperture_flowcontrol_check_v1_CheckRequest, CheckRequest__Output as _aperture_flowcontrol_check_v1_CheckRequest__Output } from './aperture/flowcontrol/check/v1/CheckRequest.js';
import type { CheckResponse as _aperture_flowcontrol_check_v1_CheckResponse, CheckResponse__Output as _aperture_flowcontrol_check_v1_CheckResponse__Output } from './aperture/flowcontrol/check/v1/CheckResponse.js';
import type { ClassifierInfo as _aperture_flowcontrol_check_v1_ClassifierInfo, ClassifierInfo__Output as _aperture_flowcontrol_check_v1_ClassifierInfo__Output } from './aperture/flowcontrol/check/v1/ClassifierInfo.js';
import type { FlowControlServiceClient as _aperture_flowcontrol_check_v1_FlowControlServiceClient, FlowControlServiceDefinition as _aperture_flowcontrol_check_v1_FlowControlServiceDefinition } from './aperture/flowcontrol/check/v1/FlowControlService.js';
import type { FlowEndRequest as _aperture_flowcontrol_check_v1_FlowEndRequest, FlowEndRequest__Output as _aperture_flowcontrol_check_v1_FlowEndRequest__Output } from './aperture/flowcontrol/check/v1/FlowEndRequest.js';
import type { FlowEndResponse as _aperture_flowcontrol_check_v1_FlowEndResponse, FlowEndResponse__Output as _aperture_flowcontrol_check_v1_FlowEndResponse__Output } from './aperture/flowcontrol/check/v1/FlowEndResponse.js';
import type { FluxMeterInfo as _aperture_flowcontrol_check_v1_FluxMeterInfo, FluxMeterInfo__Output as _aperture_flowcontrol_check_v1_FluxMeterInfo__Output } from './aperture/flowcontrol/check/v1/FluxMeterInfo.js';
import type { InflightRequestRef as _aperture_flowcontrol_check_v1_InflightRequestRef, InflightRequestRef__Output as _aperture_flowcontrol_check_v1_InflightRequestRef__Output } from './aperture/flowcontrol/check/v1/InflightRequestRef.js';
import type { KeyDeleteResponse as _aperture_flowcontrol_check_v1_KeyDeleteResponse, KeyDeleteResponse__Output as _aperture_flowcontrol_check_v1_KeyDeleteResponse__Output } from './aperture/flowcontrol/check/v1/KeyDeleteResponse.js';
import type { KeyLookupResponse as _aperture_flowcontrol_check_v1_KeyLookupResponse, KeyLookupResponse__Output as _aperture_flowcontrol_check_v1_KeyLookupResponse__Output } from './aperture/flowcontrol/check/v1/KeyLookupResponse.js';
import type { KeyUpsertResponse as _aperture_flowcontrol_check_v1_KeyUpsertResponse, KeyUpsertResponse__Output as _aperture_flowcontrol_check_v1_KeyUpsertResponse__Output } from './aperture/flowcontrol/check/v1/KeyUpsertResponse.js';
import type { LimiterDecision as _aperture_flowcontrol_check_v1_LimiterDecision, LimiterDecision__Output as _aperture_flowcontrol_check_v1_LimiterDecision__Output } from './aperture/flowcontrol/check/v1/LimiterDecision.js';
import type { CheckHTTPRequest as _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, CheckHTTPRequest__Output as _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output } from './aperture/flowcontrol/checkhttp/v1/CheckHTTPRequest.js';
import type { CheckHTTPResponse as _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse, CheckHTTPResponse__Output as _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output } from './aperture/flowcontrol/checkhttp/v1/CheckHTTPResponse.js';
import type { DeniedHttpResponse as _aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse, DeniedHttpResponse__Output as _aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output } from './aperture/flowcontrol/checkhttp/v1/DeniedHttpResponse.js';
import type { FlowControlServiceHTTPClient as _aperture_flowcontrol_checkhttp_v1_FlowControlServiceHTTPClient, FlowControlServiceHTTPDefinition as _aperture_flowcontrol_checkhttp_v1_FlowControlServiceHTTPDefinition } from './aperture/flowcontrol/checkhttp/v1/FlowControlServiceHTTP.js';
import type { OkHttpResponse as _aperture_flowcontrol_checkhttp_v1_OkHttpResponse, OkHttpResponse__Output as _aperture_flowcontrol_checkhttp_v1_OkHttpResponse__Output } from './aperture/flowcontrol/checkhttp/v1/OkHttpResponse.js';
import type { SocketAddress as _aperture_flowcontrol_checkhttp_v1_SocketAddress, SocketAddress__Output as _aperture_flowcontrol_checkhttp_v1_SocketAddress__Output } from './aperture/flowcontrol/checkhttp/v1/SocketAddress.js';
import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any.js';
import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from './google/protobuf/Duration.js';
import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue.js';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp.js';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value.js';
import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from './google/rpc/Status.js';
import type { CheckHTTPRequest as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, CheckHTTPRequest__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output } from './sluice/flowcontrol/checkhttp/v1/CheckHTTPRequest.js';
import type { CheckHTTPResponse as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse, CheckHTTPResponse__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output } from './sluice/flowcontrol/checkhttp/v1/CheckHTTPResponse.js';
import type { CheckHTTPStreamRequest as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, CheckHTTPStreamRequest__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest__Output } from './sluice/flowcontrol/checkhttp/v1/CheckHTTPStreamRequest.js';
import type { CheckHTTPStreamResponse as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse, CheckHTTPStreamResponse__Output as _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output } from './sluice/flowcontrol/checkhttp/v1/CheckHTTPStreamResponse.js';
import type { DeniedHttpResponse as _sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse, DeniedHttpResponse__Output as _sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output } from './sluice/flowcontrol/checkhttp/v1/DeniedHttpResponse.js';
import type { FlowControlServiceHTTPClient as _sluice_flowcontrol_checkhttp_v1_FlowControlServiceHTTPClient, FlowControlServiceHTTPDefinition as _sluice_flowcontrol_checkhttp_v1_FlowControlServiceHTTPDefinition } from './sluice/flowcontrol/checkhttp/v1/FlowControlServiceHTTP.js';
import type { HeaderInterest as _sluice_flowcontrol_checkhttp_v1_HeaderInterest, HeaderInterest__Output as _sluice_flowcontrol_checkhttp_v1_HeaderInterest__Output } from './sluice/flowcontrol/checkhttp/v1/HeaderInterest.js';
import type { HeaderValue as _sluice_flowcontrol_checkhttp_v1_HeaderValue, HeaderValue__Output as _sluice_flowcontrol_checkhttp_v1_HeaderValue__Output } from './sluice/flowcontrol/checkhttp/v1/HeaderValue.js';
import type { HttpRequest as _sluice_flowcontrol_checkhttp_v1_HttpRequest, HttpRequest__Output as _sluice_flowcontrol_checkhttp_v1_HttpRequest__Output } from './sluice/flowcontrol/checkhttp/v1/HttpRequest.js';
import type { OkHttpResponse as _sluice_flowcontrol_checkhttp_v1_OkHttpResponse, OkHttpResponse__Output as _sluice_flowcontrol_checkhttp_v1_OkHttpResponse__Output } from './sluice/flowcontrol/checkhttp/v1/OkHttpResponse.js';
import type { SocketAddress as _sluice_flowcontrol_checkhttp_v1_SocketAddress, SocketAddress__Output as _sluice_flowcontrol_checkhttp_v1_SocketAddress__Output } from './sluice/flowcontrol/checkhttp/v1/SocketAddress.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  aperture: {
    flowcontrol: {
      check: {
        v1: {
          CacheDeleteRequest: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheDeleteRequest, _aperture_flowcontrol_check_v1_CacheDeleteRequest__Output>
          CacheDeleteResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheDeleteResponse, _aperture_flowcontrol_check_v1_CacheDeleteResponse__Output>
          CacheEntry: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheEntry, _aperture_flowcontrol_check_v1_CacheEntry__Output>
          CacheLookupRequest: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheLookupRequest, _aperture_flowcontrol_check_v1_CacheLookupRequest__Output>
          CacheLookupResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheLookupResponse, _aperture_flowcontrol_check_v1_CacheLookupResponse__Output>
          CacheLookupStatus: EnumTypeDefinition
          CacheOperationStatus: EnumTypeDefinition
          CacheUpsertRequest: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheUpsertRequest, _aperture_flowcontrol_check_v1_CacheUpsertRequest__Output>
          CacheUpsertResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CacheUpsertResponse, _aperture_flowcontrol_check_v1_CacheUpsertResponse__Output>
          CheckRequest: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CheckRequest, _aperture_flowcontrol_check_v1_CheckRequest__Output>
          CheckResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_CheckResponse, _aperture_flowcontrol_check_v1_CheckResponse__Output>
          ClassifierInfo: MessageTypeDefinition<_aperture_flowcontrol_check_v1_ClassifierInfo, _aperture_flowcontrol_check_v1_ClassifierInfo__Output>
          FlowControlService: SubtypeConstructor<typeof grpc.Client, _aperture_flowcontrol_check_v1_FlowControlServiceClient> & { service: _aperture_flowcontrol_check_v1_FlowControlServiceDefinition }
          FlowEndRequest: MessageTypeDefinition<_aperture_flowcontrol_check_v1_FlowEndRequest, _aperture_flowcontrol_check_v1_FlowEndRequest__Output>
          FlowEndResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_FlowEndResponse, _aperture_flowcontrol_check_v1_FlowEndResponse__Output>
          FluxMeterInfo: MessageTypeDefinition<_aperture_flowcontrol_check_v1_FluxMeterInfo, _aperture_flowcontrol_check_v1_FluxMeterInfo__Output>
          InflightRequestRef: MessageTypeDefinition<_aperture_flowcontrol_check_v1_InflightRequestRef, _aperture_flowcontrol_check_v1_InflightRequestRef__Output>
          KeyDeleteResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_KeyDeleteResponse, _aperture_flowcontrol_check_v1_KeyDeleteResponse__Output>
          KeyLookupResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_KeyLookupResponse, _aperture_flowcontrol_check_v1_KeyLookupResponse__Output>
          KeyUpsertResponse: MessageTypeDefinition<_aperture_flowcontrol_check_v1_KeyUpsertResponse, _aperture_flowcontrol_check_v1_KeyUpsertResponse__Output>
          LimiterDecision: MessageTypeDefinition<_aperture_flowcontrol_check_v1_LimiterDecision, _aperture_flowcontrol_check_v1_LimiterDecision__Output>
          StatusCode: EnumTypeDefinition
        }
      }
      checkhttp: {
        v1: {
          CheckHTTPRequest: MessageTypeDefinition<_aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest, _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output>
          CheckHTTPResponse: MessageTypeDefinition<_aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse, _aperture_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>
          DeniedHttpResponse: MessageTypeDefinition<_aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse, _aperture_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output>
          FlowControlServiceHTTP: SubtypeConstructor<typeof grpc.Client, _aperture_flowcontrol_checkhttp_v1_FlowControlServiceHTTPClient> & { service: _aperture_flowcontrol_checkhttp_v1_FlowControlServiceHTTPDefinition }
          OkHttpResponse: MessageTypeDefinition<_aperture_flowcontrol_checkhttp_v1_OkHttpResponse, _aperture_flowcontrol_checkhttp_v1_OkHttpResponse__Output>
          SocketAddress: MessageTypeDefinition<_aperture_flowcontrol_checkhttp_v1_SocketAddress, _aperture_flowcontrol_checkhttp_v1_SocketAddress__Output>
        }
      }
    }
  }
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
      Duration: MessageTypeDefinition<_google_protobuf_Duration, _google_protobuf_Duration__Output>
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
    rpc: {
      Status: MessageTypeDefinition<_google_rpc_Status, _google_rpc_Status__Output>
    }
  }
  sluice: {
    flowcontrol: {
      checkhttp: {
        v1: {
          CheckHTTPRequest: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPRequest__Output>
          CheckHTTPResponse: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse, _sluice_flowcontrol_checkhttp_v1_CheckHTTPResponse__Output>
          CheckHTTPStreamRequest: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamRequest__Output>
          CheckHTTPStreamResponse: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse, _sluice_flowcontrol_checkhttp_v1_CheckHTTPStreamResponse__Output>
          DeniedHttpResponse: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse, _sluice_flowcontrol_checkhttp_v1_DeniedHttpResponse__Output>
          FlowControlServiceHTTP: SubtypeConstructor<typeof grpc.Client, _sluice_flowcontrol_checkhttp_v1_FlowControlServiceHTTPClient> & { service: _sluice_flowcontrol_checkhttp_v1_FlowControlServiceHTTPDefinition }
          HeaderInterest: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_HeaderInterest, _sluice_flowcontrol_checkhttp_v1_HeaderInterest__Output>
          HeaderValue: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_HeaderValue, _sluice_flowcontrol_checkhttp_v1_HeaderValue__Output>
          HttpRequest: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_HttpRequest, _sluice_flowcontrol_checkhttp_v1_HttpRequest__Output>
          OkHttpResponse: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_OkHttpResponse, _sluice_flowcontrol_checkhttp_v1_OkHttpResponse__Output>
          SocketAddress: MessageTypeDefinition<_sluice_flowcontrol_checkhttp_v1_SocketAddress, _sluice_flowcontrol_checkhttp_v1_SocketAddress__Output>
        }
      }
    }
  }
}

