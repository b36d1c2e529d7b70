// Original file: proto/sluice/flowcontrol/checkhttp/v1/checkhttp.proto

import type { Long } from '@grpc/proto-loader';

/**
 * The request headers and body a control point's components and previews
 * read, so that the caller sends only those.
 */
export interface HeaderInterest {
  /**
   * Changes whenever the interest of the control point changes; never 0.
   */
  'generation'?: (number | string | Long);
  /**
   * Send every header and the body (a preview is registered, or a component
   * reads what cannot be bounded).
   */
  'all'?: (boolean);
  /**
   * The headers to send, named as in their flow label: lower-cased, '-' as
   * '_' (the header `X-User` is `x_user`). The caller sends every header
   * whose name, so written, is listed.
   */
  'headers'?: (string)[];
  /**
   * Send the body (a classifier reads it).
   */
  'body'?: (boolean);
}

/**
 * The request headers and body a control point's components and previews
 * read, so that the caller sends only those.
 */
export interface HeaderInterest__Output {
  /**
   * Changes whenever the interest of the control point changes; never 0.
   */
  'generation': (number);
  /**
   * Send every header and the body (a preview is registered, or a component
   * reads what cannot be bounded).
   */
  'all': (boolean);
  /**
   * The headers to send, named as in their flow label: lower-cased, '-' as
   * '_' (the header `X-User` is `x_user`). The caller sends every header
   * whose name, so written, is listed.
   */
  'headers': (string)[];
  /**
   * Send the body (a classifier reads it).
   */
  'body': (boolean);
}
