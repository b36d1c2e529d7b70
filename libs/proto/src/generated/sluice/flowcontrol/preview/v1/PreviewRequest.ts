// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto

import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from '../../../../google/protobuf/Struct.js';
import type { Long } from '@grpc/proto-loader';

export interface PreviewRequest {
  'control_point'?: (string);
  /**
   * Number of samples to collect: 1..1000, 0 meaning the default (10).
   */
  'samples'?: (number | string | Long);
  /**
   * The label filter. Kept as a JSON object so that every rule is checked, and
   * reported with its JSON path, in one place (the selectors library).
   */
  'label_matcher'?: (_google_protobuf_Struct | null);
  /**
   * Service to preview; empty or "any" for all services.
   */
  'service'?: (string);
}

export interface PreviewRequest__Output {
  'control_point': (string);
  /**
   * Number of samples to collect: 1..1000, 0 meaning the default (10).
   */
  'samples': (number);
  /**
   * The label filter. Kept as a JSON object so that every rule is checked, and
   * reported with its JSON path, in one place (the selectors library).
   */
  'label_matcher': (_google_protobuf_Struct__Output | null);
  /**
   * Service to preview; empty or "any" for all services.
   */
  'service': (string);
}
