export { startCannedAgent, ACCEPT, type CannedAgent, type CannedAgentOptions, type CannedAnswer } from './canned-agent.js';
export { startBareProxy, type BareProxy } from './bare-proxy.js';
