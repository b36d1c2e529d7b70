export { compileLabelMatcher } from './compile-label-matcher.js';
export type { FlowLabels, LabelMatcher } from './label-matcher.js';
export { LABEL_MATCHER_LIMITS, type LabelMatcherLimits } from './limits.js';
export { memberPath, indexPath } from './json-path.js';
