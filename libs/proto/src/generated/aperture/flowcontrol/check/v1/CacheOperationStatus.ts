// Original file: proto/aperture/flowcontrol/check/v1/check.proto

export const CacheOperationStatus = {
  SUCCESS: 'SUCCESS',
  ERROR: 'ERROR',
} as const;

export type CacheOperationStatus =
  | 'SUCCESS'
  | 0
  | 'ERROR'
  | 1

export type CacheOperationStatus__Output = typeof CacheOperationStatus[keyof typeof CacheOperationStatus]
