// Original file: proto/envoy/service/auth/v3/attribute_context.proto

import type { Metadata as _envoy_config_core_v3_Metadata, Metadata__Output as _envoy_config_core_v3_Metadata__Output } from '../../../../envoy/config/core/v3/Metadata.js';
import type { Address as _envoy_config_core_v3_Address, Address__Output as _envoy_config_core_v3_Address__Output } from '../../../../envoy/config/core/v3/Address.js';
import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../../google/protobuf/Timestamp.js';
import type { HeaderMap as _envoy_config_core_v3_HeaderMap, HeaderMap__Output as _envoy_config_core_v3_HeaderMap__Output } from '../../../../envoy/config/core/v3/HeaderMap.js';
import type { Long } from '@grpc/proto-loader';

export interface _envoy_service_auth_v3_AttributeContext_HttpRequest {
  'id'?: (string);
  'method'?: (string);
  /**
   * Header names lower-cased; repeated headers joined with ','. Empty when
   * Envoy sends header_map instead (encode_raw_headers).
   */
  'headers'?: ({[key: string]: string});
  'header_map'?: (_envoy_config_core_v3_HeaderMap | null);
  /**
   * The request target: path with query.
   */
  'path'?: (string);
  'host'?: (string);
  'scheme'?: (string);
  'query'?: (string);
  'fragment'?: (string);
  /**
   * Content length; -1 when unknown.
   */
  'size'?: (number | string | Long);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3".
   */
  'protocol'?: (string);
  /**
   * The body (with_request_body), as text; raw_body when Envoy packs it as bytes.
   */
  'body'?: (string);
  'raw_body'?: (Buffer | Uint8Array | string);
}

export interface _envoy_service_auth_v3_AttributeContext_HttpRequest__Output {
  'id': (string);
  'method': (string);
  /**
   * Header names lower-cased; repeated headers joined with ','. Empty when
   * Envoy sends header_map instead (encode_raw_headers).
   */
  'headers': ({[key: string]: string});
  'header_map': (_envoy_config_core_v3_HeaderMap__Output | null);
  /**
   * The request target: path with query.
   */
  'path': (string);
  'host': (string);
  'scheme': (string);
  'query': (string);
  'fragment': (string);
  /**
   * Content length; -1 when unknown.
   */
  'size': (number);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2", "HTTP/3".
   */
  'protocol': (string);
  /**
   * The body (with_request_body), as text; raw_body when Envoy packs it as bytes.
   */
  'body': (string);
  'raw_body': (string);
}

export interface _envoy_service_auth_v3_AttributeContext_Peer {
  'address'?: (_envoy_config_core_v3_Address | null);
  'service'?: (string);
  'labels'?: ({[key: string]: string});
  'principal'?: (string);
  'certificate'?: (string);
}

export interface _envoy_service_auth_v3_AttributeContext_Peer__Output {
  'address': (_envoy_config_core_v3_Address__Output | null);
  'service': (string);
  'labels': ({[key: string]: string});
  'principal': (string);
  'certificate': (string);
}

export interface _envoy_service_auth_v3_AttributeContext_Request {
  'time'?: (_google_protobuf_Timestamp | null);
  'http'?: (_envoy_service_auth_v3_AttributeContext_HttpRequest | null);
}

export interface _envoy_service_auth_v3_AttributeContext_Request__Output {
  'time': (_google_protobuf_Timestamp__Output | null);
  'http': (_envoy_service_auth_v3_AttributeContext_HttpRequest__Output | null);
}

export interface _envoy_service_auth_v3_AttributeContext_TLSSession {
  'sni'?: (string);
}

export interface _envoy_service_auth_v3_AttributeContext_TLSSession__Output {
  'sni': (string);
}

export interface AttributeContext {
  'source'?: (_envoy_service_auth_v3_AttributeContext_Peer | null);
  'destination'?: (_envoy_service_auth_v3_AttributeContext_Peer | null);
  'request'?: (_envoy_service_auth_v3_AttributeContext_Request | null);
  'context_extensions'?: ({[key: string]: string});
  'metadata_context'?: (_envoy_config_core_v3_Metadata | null);
  'tls_session'?: (_envoy_service_auth_v3_AttributeContext_TLSSession | null);
  'route_metadata_context'?: (_envoy_config_core_v3_Metadata | null);
}

export interface AttributeContext__Output {
  'source': (_envoy_service_auth_v3_AttributeContext_Peer__Output | null);
  'destination': (_envoy_service_auth_v3_AttributeContext_Peer__Output | null);
  'request': (_envoy_service_auth_v3_AttributeContext_Request__Output | null);
  'context_extensions': ({[key: string]: string});
  'metadata_context': (_envoy_config_core_v3_Metadata__Output | null);
  'tls_session': (_envoy_service_auth_v3_AttributeContext_TLSSession__Output | null);
  'route_metadata_context': (_envoy_config_core_v3_Metadata__Output | null);
}
