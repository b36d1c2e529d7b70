export { startCannedAgent, ACCEPT, type CannedAgent, type CannedAnswer } from './canned-agent.js';
