import { GrpcCode } from './grpc-code.js';

interface Entry {
  /** How an error of this code travels over gRPC (and from it, over HTTP) unless the raiser says otherwise. */
  readonly grpc: GrpcCode;
  /** What it means, for docs/errors.md. */
  readonly meaning: string;
}

/**
 * Every error code Sluice raises, in one place. A code is stable: clients may match on it. The
 * `SLUICE_ERR_` prefix is added by `ErrorCode`; docs/errors.md is generated from this table.
 */
const CATALOGUE = {
  INTERNAL: { grpc: GrpcCode.INTERNAL, meaning: 'an unexpected failure inside the process; the message says what failed' },
  INVALID_ARGUMENT: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'a request or value breaks a rule; the details name the field at fault' },
  INVALID_MESSAGE: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'a JSON body does not fit the message of its route (proto3 JSON); the details name the field' },
  NOT_FOUND: { grpc: GrpcCode.NOT_FOUND, meaning: 'the thing named does not exist' },
  UNIMPLEMENTED: { grpc: GrpcCode.UNIMPLEMENTED, meaning: 'the route or method exists in the API but this process does not serve it' },
  UNAVAILABLE: { grpc: GrpcCode.UNAVAILABLE, meaning: 'a service this request needs cannot be reached now; retry later' },
  DEADLINE_EXCEEDED: { grpc: GrpcCode.DEADLINE_EXCEEDED, meaning: 'the work did not finish in the time it was given' },
  PAYLOAD_TOO_LARGE: { grpc: GrpcCode.RESOURCE_EXHAUSTED, meaning: 'a body larger than the route accepts (HTTP 413)' },
  UNSUPPORTED_MEDIA_TYPE: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'a body in a content type the route does not speak (HTTP 415)' },
  CONFIG: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'the configuration (file, environment, flags) is invalid; every problem is listed with its key and environment variable' },
  STARTUP: { grpc: GrpcCode.INTERNAL, meaning: 'a component of the process failed to start; the message names it' },
  LISTEN: { grpc: GrpcCode.INTERNAL, meaning: 'a listener cannot bind its address' },
  NOT_LISTENING: { grpc: GrpcCode.INTERNAL, meaning: 'the server was asked for its address before it listened' },
  LOG_WRITER: { grpc: GrpcCode.INTERNAL, meaning: 'the log file or its directory cannot be created' },
  PROFILES_PATH: { grpc: GrpcCode.FAILED_PRECONDITION, meaning: 'the profiles directory cannot be created' },
  PROFILER_BUSY: { grpc: GrpcCode.ABORTED, meaning: 'a profiler of that kind is already running in this process' },
  METRICS_COLLECTION: { grpc: GrpcCode.INTERNAL, meaning: 'collecting the metrics for /metrics failed' },
  METRIC_INCONSISTENT: { grpc: GrpcCode.INTERNAL, meaning: 'a metric was registered twice with different help, type or labels' },
  KUBE_CONFIG: { grpc: GrpcCode.FAILED_PRECONDITION, meaning: 'no usable Kubernetes configuration (in-cluster or kubeconfig)' },
  ETCD_UNAVAILABLE: { grpc: GrpcCode.UNAVAILABLE, meaning: 'etcd cannot be reached now' },
  INVALID_POLICY: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'a policy does not compile; the details list every problem with its JSON path' },
  POLICY_MANAGED_BY_KUBERNETES: { grpc: GrpcCode.FAILED_PRECONDITION, meaning: 'the policy comes from a Policy resource: change or delete the resource instead' },
  POLICY_CHANGED: { grpc: GrpcCode.ABORTED, meaning: 'the policy was changed by another writer during the request; nothing was written (HTTP 409)' },
  PROMQL_RESULT: { grpc: GrpcCode.FAILED_PRECONDITION, meaning: 'a PromQL query answered with a result the component cannot use' },
  LOCAL_LIMITERS: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'the local limiters document is invalid; the details name the field' },
  LOCAL_LIMITERS_FILE: { grpc: GrpcCode.INTERNAL, meaning: 'the local limiters file cannot be read or parsed' },
  TOO_MANY_PREVIEWS: { grpc: GrpcCode.RESOURCE_EXHAUSTED, meaning: 'as many previews as allowed are running; retry later' },
  DISTCACHE_AUTH: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'the distributed cache’s authentication keys are missing or invalid' },
  DISTCACHE_ADDRESS: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'a distributed cache address has no port or a bad one' },
  DISTCACHE_BIND: { grpc: GrpcCode.UNAVAILABLE, meaning: 'a distributed cache listener cannot bind its address' },
  DISTCACHE_CLOSED: { grpc: GrpcCode.UNAVAILABLE, meaning: 'the connection to a peer was closed by this agent' },
  DISTCACHE_PEER_UNAVAILABLE: { grpc: GrpcCode.UNAVAILABLE, meaning: 'the connection to the peer that owns a bucket was lost' },
  DISTCACHE_TIMEOUT: { grpc: GrpcCode.DEADLINE_EXCEEDED, meaning: 'the peer that owns a bucket did not answer in time' },
  DISTCACHE_BAD_OPERATION: { grpc: GrpcCode.INVALID_ARGUMENT, meaning: 'an operation for a peer cannot be encoded' },
  UPSTREAM_TIMEOUT: { grpc: GrpcCode.DEADLINE_EXCEEDED, meaning: 'the workload behind the tap did not answer in time (HTTP 504)' },
  BAD_UPSTREAM_RESPONSE: { grpc: GrpcCode.INTERNAL, meaning: 'the workload answered with a response the tap will not relay (HTTP 502)' },
} as const satisfies Record<string, Entry>;

export type ErrorCodeName = keyof typeof CATALOGUE;
/** A code of the catalogue, as it appears in errors and gateway bodies. */
export type ErrorCode = `SLUICE_ERR_${ErrorCodeName}`;

/** The codes by short name: `ErrorCode.INVALID_ARGUMENT` is `'SLUICE_ERR_INVALID_ARGUMENT'`. */
export const ErrorCode = Object.freeze(
  Object.fromEntries(Object.keys(CATALOGUE).map((name) => [name, `SLUICE_ERR_${name}`])),
) as { readonly [K in ErrorCodeName]: `SLUICE_ERR_${K}` };

export interface ErrorCodeEntry extends Entry {
  readonly code: ErrorCode;
}

/** Every code with its default gRPC status and meaning, in catalogue order. */
export const errorCatalogue: readonly ErrorCodeEntry[] = Object.freeze(
  (Object.entries(CATALOGUE) as [ErrorCodeName, Entry][]).map(([name, entry]) => ({ code: `SLUICE_ERR_${name}` as ErrorCode, ...entry })),
);

const byCode = new Map<string, ErrorCodeEntry>(errorCatalogue.map((e) => [e.code, e]));

/** The catalogue's entry of a code, or undefined for a string that is no code. */
export function errorCodeEntry(code: string): ErrorCodeEntry | undefined {
  return byCode.get(code);
}
