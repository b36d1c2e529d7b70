// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto


export interface FlowLabels {
  'labels'?: ({[key: string]: string});
}

export interface FlowLabels__Output {
  'labels': ({[key: string]: string});
}
