// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { Long } from '@grpc/proto-loader';

export interface HttpRequest {
  'method'?: (string);
  'headers'?: ({[key: string]: string});
  /**
   * Path with query, as sent on the request line.
   */
  'path'?: (string);
  'host'?: (string);
  'scheme'?: (string);
  /**
   * Content length; -1 when unknown.
   */
  'size'?: (number | string | Long);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2".
   */
  'protocol'?: (string);
  /**
   * The body up to the tap's bound; see truncated_body.
   */
  'body'?: (string);
  'truncated_body'?: (boolean);
}

export interface HttpRequest__Output {
  'method': (string);
  'headers': ({[key: string]: string});
  /**
   * Path with query, as sent on the request line.
   */
  'path': (string);
  'host': (string);
  'scheme': (string);
  /**
   * Content length; -1 when unknown.
   */
  'size': (number);
  /**
   * "HTTP/1.0", "HTTP/1.1", "HTTP/2".
   */
  'protocol': (string);
  /**
   * The body up to the tap's bound; see truncated_body.
   */
  'body': (string);
  'truncated_body': (boolean);
}
