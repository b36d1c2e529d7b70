export { startCannedAgent, ACCEPT, type CannedAgent, type CannedAgentOptions, type CannedAnswer } from './canned-agent.js';
export { startBareProxy, type BareProxy } from './bare-proxy.js';
export { startEchoServer, echoClient, unary, ECHO_SERVICE, type EchoClient, type EchoServer } from './grpc-echo.js';
