import type * as grpc from '@grpc/grpc-js';
import type { Lifecycle, ShutdownOptions } from '@sluice/lifecycle';
import type { Express } from 'express';
import type { Registry } from 'prom-client';
import type { UpgradeRoute } from './upgrade-routes.js';
import type { InjectReply, InjectRequest } from './inject.js';

import type { Logger } from '@sluice/telemetry/logger';

export type { Logger };

export interface ServerDeps {
  registry: Registry;
  logger?: Logger;
}

/** Input handed to a gateway route's `toRequest`. */
export interface GatewayInput {
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** An HTTP/JSON route that calls a unary gRPC method of this server. */
export interface GatewayRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express path, e.g. '/v1/flowcontrol/preview/http_requests/:control_point'. */
  path: string;
  /** Full gRPC service name, e.g. 'sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP'. */
  service: string;
  /** Method name in that service. */
  rpc: string;
  /** A request body is required (missing → 400). */
  requireBody?: boolean;
  /** Default 1 MiB; a larger body → 413. */
  bodyLimitBytes?: number;
  /** Builds the gRPC request; may throw a SluiceError (answered with its status and body). */
  toRequest(input: GatewayInput): object;
  /**
   * Builds the JSON body of a success from the response message (as the gRPC client
   * decodes it); default: the message itself. May throw a SluiceError.
   */
  fromResponse?(response: unknown): unknown;
  /** gRPC deadline for the call. */
  timeoutMs?: number;
  /**
   * Serve the route in this process instead of calling the gRPC method: the same body parsing
   * and error answers, then this function's value as the JSON body (a JsonText as it is).
   * For answers too large to afford a google.protobuf.Struct round trip (the HTTP preview).
   * `signal` aborts when the client goes away or the route's timeout passes.
   */
  local?(input: GatewayInput, signal: AbortSignal): Promise<unknown>;
}

/** A JSON body already serialized (built in slices by its producer); sent as it is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface SluiceServer extends Lifecycle {
  /** Mount HTTP routes / routers any time before start(). */
  readonly app: Express;
  /**
   * Register a gRPC service (before start). Services loaded with @grpc/proto-loader
   * carry their file descriptors, which server reflection uses when enabled.
   */
  addService(service: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void;
  /** Mount an HTTP/JSON → gRPC gateway route (before start). */
  addGatewayRoute(route: GatewayRoute): void;
  /**
   * Run a request through the HTTP routes in this process (no socket; past bearer-token checks):
   * agent functions call the agent's own routes this way.
   */
  inject(r: InjectRequest): Promise<InjectReply>;
  /** Serve a path that switches protocols with HTTP/1.1 Upgrade (before start). */
  addUpgradeRoute(route: UpgradeRoute): void;
  /** Binds server.listener.addr; gRPC and HTTP on the same port. */
  start(): Promise<void>;
  /** Stop accepting, let in-flight requests and calls finish, force what is left at the deadline (10 s when none is given). */
  shutdown(opts?: ShutdownOptions): Promise<void>;
  /**
   * Leave an HTTP path open when `server.auth` asks for bearer tokens (probes and metrics are);
   * a route authenticated another way, such as the admission webhook by client certificate.
   */
  openPath(path: string): void;
  /** The bound address (after start). */
  address(): { host: string; port: number };
}
