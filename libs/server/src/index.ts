export type { ServerConfig, ListenerConfig, GRPCServerConfig, HTTPServerConfig, GRPCGatewayConfig, ServerTLSConfig, ServerAuthConfig } from './config.js';
export type { SluiceServer, GatewayRoute, GatewayInput, ServerDeps, Logger } from './types.js';
export { JsonText } from './types.js';
export type { UpgradeRoute } from './upgrade-routes.js';
export type { InjectRequest, InjectReply } from './inject.js';
export { createServer } from './create-server.js';
export { unary, toGrpcStatus } from './unary.js';
