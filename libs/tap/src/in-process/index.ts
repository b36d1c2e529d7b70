export { startInProcessTap, TapConfigError, type InProcessTapDeps } from './start.js';
export { EngineChecker } from './engine-checker.js';
export { answerOf, answerOfDecision } from './engine-answer.js';
export { engineFlowEnds } from './engine-flow-ends.js';
export { inProcessTapOptions } from './options.js';
