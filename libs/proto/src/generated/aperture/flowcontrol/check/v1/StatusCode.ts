// Original file: proto/aperture/flowcontrol/check/v1/check.proto

/**
 * HTTP status codes a denial may carry. Only the values Sluice uses, and the
 * neutral Empty, are listed; the numbers are the HTTP codes themselves.
 */
export const StatusCode = {
  Empty: 'Empty',
  OK: 'OK',
  BadRequest: 'BadRequest',
  Forbidden: 'Forbidden',
  TooManyRequests: 'TooManyRequests',
  InternalServerError: 'InternalServerError',
  ServiceUnavailable: 'ServiceUnavailable',
  GatewayTimeout: 'GatewayTimeout',
} as const;

/**
 * HTTP status codes a denial may carry. Only the values Sluice uses, and the
 * neutral Empty, are listed; the numbers are the HTTP codes themselves.
 */
export type StatusCode =
  | 'Empty'
  | 0
  | 'OK'
  | 200
  | 'BadRequest'
  | 400
  | 'Forbidden'
  | 403
  | 'TooManyRequests'
  | 429
  | 'InternalServerError'
  | 500
  | 'ServiceUnavailable'
  | 503
  | 'GatewayTimeout'
  | 504

/**
 * HTTP status codes a denial may carry. Only the values Sluice uses, and the
 * neutral Empty, are listed; the numbers are the HTTP codes themselves.
 */
export type StatusCode__Output = typeof StatusCode[keyof typeof StatusCode]
