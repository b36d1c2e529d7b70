// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto


export interface FlowLabels {
  'labels'?: ({[key: string]: string});
  /**
   * When the flow was seen, in milliseconds since the Unix epoch.
   */
  'arrival_unix_ms'?: (number | string);
}

export interface FlowLabels__Output {
  'labels': ({[key: string]: string});
  /**
   * When the flow was seen, in milliseconds since the Unix epoch.
   */
  'arrival_unix_ms': (number);
}
