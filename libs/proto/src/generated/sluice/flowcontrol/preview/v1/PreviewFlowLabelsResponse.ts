// Original file: proto/sluice/flowcontrol/preview/v1/preview.proto

import type { FlowLabels as _sluice_flowcontrol_preview_v1_FlowLabels, FlowLabels__Output as _sluice_flowcontrol_preview_v1_FlowLabels__Output } from '../../../../sluice/flowcontrol/preview/v1/FlowLabels.js';

export interface PreviewFlowLabelsResponse {
  'samples'?: (_sluice_flowcontrol_preview_v1_FlowLabels)[];
}

export interface PreviewFlowLabelsResponse__Output {
  'samples': (_sluice_flowcontrol_preview_v1_FlowLabels__Output)[];
}
