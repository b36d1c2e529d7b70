import type * as grpc from '@grpc/grpc-js';
import { unary } from '@sluice/server';
import { serviceClient, type EnvoyAuth_CheckRequest__Output, type EnvoyAuth_CheckResponse } from '@sluice/proto';
import { CallCancellation } from '../check/call-cancellation.js';
import type { ServiceDiscovery } from '../services/check-service.js';
import { decideCheckHttp, type CheckHttpDeps } from '../checkhttp/checkhttp-decide.js';
import type { Engine } from '../check/engine.js';
import { envoyControlPoint, envoyToCheckHttp, ENVOY_CONTROL_POINT_KEY } from './envoy-authz-request.js';
import { envoyRefusal, toEnvoyCheckResponse } from './envoy-authz-response.js';
import { deadlineMsOf } from '../check/request-checks.js';

function metadataValue(call: grpc.ServerUnaryCall<unknown, unknown>): string | undefined {
  const v = call.metadata.get(ENVOY_CONTROL_POINT_KEY)[0];
  return typeof v === 'string' ? v : undefined;
}

/**
 * envoy.service.auth.v3.Authorization: Envoy's ext_authz filter asks here.
 * The request is decided as a CheckHTTP request is (checkhttp-decide.ts: the
 * same flow labels, target normalization, services from the destination
 * address, preview). Flows are not registered for a flow id: Envoy reports
 * their ends with its OpenTelemetry access log (otlp-logs-service.ts).
 * A request without HTTP attributes, or with a control point past its bound,
 * is answered INVALID_ARGUMENT (Envoy then applies `failure_mode_allow`).
 */
export function envoyAuthorizationServiceImpl(engine: Engine, discovery: ServiceDiscovery | undefined): grpc.UntypedServiceImplementation {
  const deps: CheckHttpDeps = { engine, discovery };
  return {
    Check: unary<EnvoyAuth_CheckRequest__Output, EnvoyAuth_CheckResponse>((req, call) => {
      const controlPoint = envoyControlPoint(metadataValue(call), req);
      const mapped = envoyToCheckHttp(req, controlPoint);
      if (!mapped.ok) return envoyRefusal(mapped.status, controlPoint, mapped.reason);
      const answer = decideCheckHttp(deps, mapped.req, deadlineMsOf(call.getDeadline()), new CallCancellation(call));
      return answer instanceof Promise ? answer.then(toEnvoyCheckResponse) : toEnvoyCheckResponse(answer);
    }),
  };
}

/** Register envoy.service.auth.v3.Authorization on the server (before start). */
export function registerEnvoyAuthorizationService(
  server: { addService(def: grpc.ServiceDefinition, impl: grpc.UntypedServiceImplementation): void },
  engine: Engine,
  discovery?: ServiceDiscovery,
): void {
  server.addService(serviceClient('envoyAuthorization').service, envoyAuthorizationServiceImpl(engine, discovery));
}
