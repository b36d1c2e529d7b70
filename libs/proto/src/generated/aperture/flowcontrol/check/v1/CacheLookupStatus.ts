// Original file: proto/aperture/flowcontrol/check/v1/check.proto

export const CacheLookupStatus = {
  HIT: 'HIT',
  MISS: 'MISS',
} as const;

export type CacheLookupStatus =
  | 'HIT'
  | 0
  | 'MISS'
  | 1

export type CacheLookupStatus__Output = typeof CacheLookupStatus[keyof typeof CacheLookupStatus]
