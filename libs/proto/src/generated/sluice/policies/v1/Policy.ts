// Original file: proto/sluice/policies/v1/policies.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../google/protobuf/Struct.js';

export interface Policy {
  'name'?: (string);
  'spec'?: (_google_protobuf_Struct | null);
  'hash'?: (string);
  /**
   * `running`, or `failed` when the policy could not be compiled.
   */
  'status'?: (string);
  /**
   * Where the policy comes from: `api` or `kubernetes`.
   */
  'source'?: (string);
  /**
   * Inert parts of the spec accepted but ignored, e.g. `spec.resources.infra_meters`.
   */
  'ignored'?: (string)[];
  /**
   * The last error met while running the policy (a PromQL query, a publication), or empty.
   */
  'last_error'?: (string);
  /**
   * Component ids published for the agents.
   */
  'components'?: (string)[];
  /**
   * Values of the circuit's signals at its last tick (null: invalid).
   */
  'signals'?: (_google_protobuf_Struct | null);
}

export interface Policy__Output {
  'name': (string);
  'spec': (_google_protobuf_Struct__Output | null);
  'hash': (string);
  /**
   * `running`, or `failed` when the policy could not be compiled.
   */
  'status': (string);
  /**
   * Where the policy comes from: `api` or `kubernetes`.
   */
  'source': (string);
  /**
   * Inert parts of the spec accepted but ignored, e.g. `spec.resources.infra_meters`.
   */
  'ignored': (string)[];
  /**
   * The last error met while running the policy (a PromQL query, a publication), or empty.
   */
  'last_error': (string);
  /**
   * Component ids published for the agents.
   */
  'components': (string)[];
  /**
   * Values of the circuit's signals at its last tick (null: invalid).
   */
  'signals': (_google_protobuf_Struct__Output | null);
}
