import * as grpc from '@grpc/grpc-js';
import type { RequestHandler } from 'express';
import { BearerTokens, bearerOf } from './bearer-tokens.js';
import { isInternalRequest } from './inject.js';
import { GrpcCode } from '@sluice/errors';

/** HTTP paths that stay open when bearer tokens are required: probes and metrics (read-only). */
export const OPEN_HTTP_PATHS = ['/v1/status/system/liveness', '/v1/status/system/readiness', '/healthz', '/metrics'];
/** gRPC services that stay open: the standard health check. */
export const OPEN_GRPC_SERVICES = ['grpc.health.v1.Health'];

const UNAUTHENTICATED_MESSAGE = 'a valid bearer token is required (Authorization: Bearer <token>)';

/**
 * Bearer-token authentication of one server (`server.auth.token_file`): every HTTP route and gRPC
 * method needs `Authorization: Bearer <token>` with a token of the file, except the open paths
 * (OPEN_HTTP_PATHS and those added with `open`) and OPEN_GRPC_SERVICES. The HTTP gateway hands the
 * caller's header on to the gRPC call it makes, so its routes are checked once more there.
 */
export class BearerAuth {
  private readonly openPaths = new Set(OPEN_HTTP_PATHS);

  constructor(readonly tokens: BearerTokens) {}

  /** Leave an HTTP path open (a route authenticated otherwise, e.g. by client certificate). */
  open(path: string): void {
    this.openPaths.add(path);
  }

  /** Express middleware: a 401 in the gateway's error shape for a request without a valid token. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      const internal = isInternalRequest(req);
      if (internal || this.openPaths.has(req.path) || this.tokens.accepts(bearerOf(req.headers.authorization))) {
        next();
        return;
      }
      res.setHeader('www-authenticate', 'Bearer');
      res.status(401).json({ code: GrpcCode.UNAUTHENTICATED, message: UNAUTHENTICATED_MESSAGE, details: [] });
    };
  }

  /** gRPC server interceptor: UNAUTHENTICATED for a call without a valid token in its `authorization` metadata. */
  interceptor(): grpc.ServerInterceptor {
    return (def, call) => {
      const service = def.path.slice(1, def.path.lastIndexOf('/'));
      if (OPEN_GRPC_SERVICES.includes(service)) return call as grpc.ServerInterceptingCall;
      let refused = false;
      return new grpc.ServerInterceptingCall(call, {
        start: (next) => next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            const header = metadata.get('authorization')[0];
            if (this.tokens.accepts(bearerOf(typeof header === 'string' ? header : undefined))) {
              nextMetadata(metadata);
              return;
            }
            refused = true;
            call.sendStatus({ code: GrpcCode.UNAUTHENTICATED, details: UNAUTHENTICATED_MESSAGE, metadata: new grpc.Metadata() });
          },
          onReceiveMessage: (message, nextMessage) => { if (!refused) nextMessage(message); },
          onReceiveHalfClose: (nextHalfClose) => { if (!refused) nextHalfClose(); },
        }),
      });
    };
  }
}
