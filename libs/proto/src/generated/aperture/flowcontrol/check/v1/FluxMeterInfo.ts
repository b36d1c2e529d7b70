// Original file: proto/aperture/flowcontrol/check/v1/check.proto


export interface FluxMeterInfo {
  'flux_meter_name'?: (string);
}

export interface FluxMeterInfo__Output {
  'flux_meter_name': (string);
}
