// Original file: proto/aperture/flowcontrol/checkhttp/v1/checkhttp.proto

import type { SocketAddress as _aperture_flowcontrol_checkhttp_v1_SocketAddress, SocketAddress__Output as _aperture_flowcontrol_checkhttp_v1_SocketAddress__Output } from '../../../../aperture/flowcontrol/checkhttp/v1/SocketAddress.js';
import type { Long } from '@grpc/proto-loader';

export interface _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest_HttpRequest {
  'method'?: (string);
  'headers'?: ({[key: string]: string});
  /**
   * The request target: path and query, as on the request line.
   */
  'path'?: (string);
  'host'?: (string);
  'scheme'?: (string);
  /**
   * Size in bytes; -1 when unknown.
   */
  'size'?: (number | string | Long);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2".
   */
  'protocol'?: (string);
  'body'?: (string);
}

export interface _aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest_HttpRequest__Output {
  'method': (string);
  'headers': ({[key: string]: string});
  /**
   * The request target: path and query, as on the request line.
   */
  'path': (string);
  'host': (string);
  'scheme': (string);
  /**
   * Size in bytes; -1 when unknown.
   */
  'size': (number);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2".
   */
  'protocol': (string);
  'body': (string);
}

export interface CheckHTTPRequest {
  'source'?: (_aperture_flowcontrol_checkhttp_v1_SocketAddress | null);
  'destination'?: (_aperture_flowcontrol_checkhttp_v1_SocketAddress | null);
  'request'?: (_aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest_HttpRequest | null);
  'control_point'?: (string);
}

export interface CheckHTTPRequest__Output {
  'source': (_aperture_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'destination': (_aperture_flowcontrol_checkhttp_v1_SocketAddress__Output | null);
  'request': (_aperture_flowcontrol_checkhttp_v1_CheckHTTPRequest_HttpRequest__Output | null);
  'control_point': (string);
}
