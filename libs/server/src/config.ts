import type { ServerAuthConfig, ServerTreeConfig } from '@sluice/config';

// The `server.*` configuration objects this lib consumes, validated and with defaults filled in by
// @sluice/config: snake_case fields, durations as Go duration strings.
export type { ListenerConfig, GRPCServerConfig, HTTPServerConfig, GRPCGatewayConfig, ServerTLSConfig, ServerAuthConfig } from '@sluice/config';

/** The `server` subtree; `auth` is the controller's only. */
export type ServerConfig = ServerTreeConfig & { auth?: ServerAuthConfig };
