import { onceShutdown } from '@sluice/lifecycle';
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { InvalidArgumentError } from '@sluice/errors';
import { BearerAuth } from './bearer-auth.js';
import { BearerTokens } from './bearer-tokens.js';
import type { ServerConfig } from './config.js';
import { durationMs } from './durations.js';
import { GatewayClient, type GatewayTarget } from './gateway-client.js';
import { gatewayHandler } from './gateway.js';
import { GrpcServer } from './grpc-server.js';
import { Http2RestBridge } from './h2-rest-bridge.js';
import { errorHandler, notFoundHandler } from './http-errors.js';
import { httpMetricsMiddleware } from './http-metrics.js';
import { createHttpServer, httpTimeouts } from './http-server.js';
import { UpgradeRoutes } from './upgrade-routes.js';
import { injector as httpInjector } from './inject.js';
import { bearerOf } from './bearer-tokens.js';
import { InternalListener } from './internal-listener.js';
import { resolveListenTarget } from './listen-address.js';
import { SharedListener } from './listener.js';
import { peerAllowed, serverTlsOptions } from './tls.js';
import type { GatewayRoute, ServerDeps, SluiceServer } from './types.js';
import { writeTimeoutMiddleware } from './write-timeout.js';

const DEFAULT_SHUTDOWN_DEADLINE_MS = 10_000;

/** A bound host as a dialable one: the wildcard addresses become loopback. */
function dialHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * The Sluice server: HTTP/1.1 (express) and gRPC (grpc-js) on one listener, optional TLS,
 * the JSON → gRPC gateway, and metrics in `deps.registry`.
 */
export function createServer(config: ServerConfig, deps: ServerDeps): SluiceServer {
  const { registry, logger } = deps;
  const timeouts = httpTimeouts(config.http);
  const connectionTimeout = Math.max(0, durationMs(config.grpc.connection_timeout, 'grpc.connection_timeout'));
  const keepAliveMs = durationMs(config.listener.keep_alive, 'listener.keep_alive');
  const tlsOptions = config.tls.enabled ? serverTlsOptions(config.tls) : undefined;
  // Until the first bytes arrive the protocol is unknown: both bounds apply.
  const bounds = [timeouts.headersTimeout, connectionTimeout].filter((v) => v > 0);
  const firstBytesTimeoutMs = bounds.length === 0 ? 0 : Math.min(...bounds);

  // Bearer tokens (`server.auth.token_file`): a file that cannot be read is a start-up error.
  const auth = config.auth !== undefined && config.auth.token_file !== '' ? new BearerAuth(new BearerTokens(config.auth.token_file)) : undefined;
  if (auth !== undefined && auth.tokens.size === 0) {
    throw new InvalidArgumentError(`server.auth.token_file ${JSON.stringify(config.auth?.token_file)} cannot be read or holds no token`, 'server.auth.token_file');
  }
  const grpcServer = new GrpcServer(config.grpc, registry, auth?.interceptor());
  const upgrades = new UpgradeRoutes(auth === undefined ? undefined : (req) => auth.tokens.accepts(bearerOf(req.headers.authorization)));
  const injector = (): grpc.ConnectionInjector => grpcServer.open();

  const app = express();
  app.disable('x-powered-by');
  app.use(writeTimeoutMiddleware(timeouts.writeTimeout));
  app.use(httpMetricsMiddleware(registry, config.http.latency_buckets_ms));
  if (auth !== undefined) app.use(auth.middleware());
  if (config.http.disable_http_keep_alives) {
    app.use((_req, res, next) => {
      res.setHeader('Connection', 'close');
      next();
    });
  }

  const httpServer = createHttpServer(config.http, timeouts, (req: IncomingMessage, res: ServerResponse) => app(req, res), tlsOptions && {
    ...tlsOptions,
    handshakeTimeout: firstBytesTimeoutMs > 0 ? firstBytesTimeoutMs : 120_000,
  });
  // HTTP/2 connections whose first request is not gRPC (curl over https negotiates h2) reach the same routes.
  const h2Rest = new Http2RestBridge(createHttpServer(config.http, timeouts, (req: IncomingMessage, res: ServerResponse) => app(req, res)), logger);
  const listener = new SharedListener(httpServer, injector, {
    firstBytesTimeoutMs,
    keepAliveMs,
    tls: tlsOptions !== undefined,
    peerAllowed: tlsOptions !== undefined ? (socket) => peerAllowed(socket, config.tls) : undefined,
    serveHttp2: (socket) => h2Rest.serve(socket),
    logger,
  });

  const ownAddress = config.grpc_gateway.grpc_server_address === '';
  const internal = ownAddress && tlsOptions !== undefined ? new InternalListener(injector, firstBytesTimeoutMs) : undefined;
  const gatewayTarget = (): GatewayTarget => {
    if (internal !== undefined) return { address: internal.target, credentials: grpc.credentials.createInsecure() };
    if (!ownAddress) return { address: config.grpc_gateway.grpc_server_address, credentials: grpc.credentials.createInsecure() };
    const { host, port } = listener.address();
    return { address: `${dialHost(host)}:${port}`, credentials: grpc.credentials.createInsecure() };
  };
  const gatewayClient = new GatewayClient(gatewayTarget);
  let state: 'new' | 'starting' | 'started' | 'stopped' = 'new';

  return {
    app,
    addService(service, impl) {
      if (state !== 'new') throw new Error('addService must be called before start()');
      grpcServer.addService(service, impl);
    },
    addGatewayRoute(route: GatewayRoute) {
      app[route.method](route.path, gatewayHandler(route, grpcServer.services, gatewayClient));
    },
    inject: httpInjector((req: IncomingMessage, res: ServerResponse) => app(req, res)),
    addUpgradeRoute(route) {
      if (state !== 'new') throw new Error('addUpgradeRoute must be called before start()');
      upgrades.add(route);
    },
    async start() {
      if (state !== 'new') throw new Error('start() may be called once');
      state = 'starting';
      app.use(notFoundHandler);
      app.use(errorHandler(logger));
      // Only a server with upgrade routes answers upgrades itself; others leave them to the routes.
      if (upgrades.size > 0) httpServer.on('upgrade', upgrades.onUpgrade);
      grpcServer.open();
      const target = await resolveListenTarget(config.listener.addr, config.listener.network);
      try {
        await h2Rest.listen();
        if (internal !== undefined) await internal.listen();
        await listener.listen(target, `${config.listener.network} ${config.listener.addr}`);
      } catch (err) {
        await Promise.all([h2Rest.close(), internal?.close()]);
        throw err;
      }
      state = 'started';
      logger?.info('server listening', { addr: config.listener.addr, ...listener.address(), tls: tlsOptions !== undefined });
    },
    shutdown: onceShutdown('server', async (deadlineMs) => {
      state = 'stopped';
      upgrades.close();
      // Once gRPC has stopped (its calls answered, its sessions given a short grace) and the HTTP/2
      // bridge is closed, an HTTP/2 connection a client still holds open carries nothing: cut it.
      const http2Done = Promise.all([grpcServer.shutdown(deadlineMs), h2Rest.close()]).then(() => listener.destroyHttp2());
      const closed = Promise.all([listener.close(), internal?.close(), http2Done]);
      const idle = setInterval(() => {
        listener.closeIdle();
        h2Rest.closeIdle();
      }, 25);
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          listener.destroyAll();
          upgrades.destroyAll();
          internal?.destroyAll();
          h2Rest.destroyAll();
          resolve();
        }, deadlineMs);
      });
      await Promise.race([closed, deadline]);
      clearInterval(idle);
      clearTimeout(timer);
      gatewayClient.close();
      await closed;
    }, DEFAULT_SHUTDOWN_DEADLINE_MS),
    address() {
      return listener.address();
    },
    openPath(path: string) {
      auth?.open(path);
    },
  };
}
