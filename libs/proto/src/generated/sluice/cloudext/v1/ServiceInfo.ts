// Original file: proto/sluice/cloudext/v1/heartbeat.proto


export interface ServiceInfo {
  'name'?: (string);
  /**
   * Control points seen with flows of this service.
   */
  'control_points'?: (string)[];
}

export interface ServiceInfo__Output {
  'name': (string);
  /**
   * Control points seen with flows of this service.
   */
  'control_points': (string)[];
}
