export { startInProcessTap, TapConfigError, type InProcessTapDeps } from './start.js';
export { EngineChecker, answerOf } from './engine-checker.js';
export { engineFlowEnds } from './engine-flow-ends.js';
export { inProcessTapOptions } from './options.js';
