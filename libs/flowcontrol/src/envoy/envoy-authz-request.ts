import type {
  CheckHTTPRequest__Output, EnvoyAuth_AttributeContext_HttpRequest__Output, EnvoyAuth_AttributeContext_Peer__Output,
  EnvoyAuth_CheckRequest__Output, HttpRequest__Output, SocketAddress__Output,
} from '@sluice/proto';

/** The control point of an ext_authz request that names none (neither call metadata nor context extension). */
export const ENVOY_DEFAULT_CONTROL_POINT = 'ingress';
/** The gRPC call metadata key, and the `context_extensions` key, naming the control point. */
export const ENVOY_CONTROL_POINT_KEY = 'control-point';
/** Most header fields of one ext_authz request read; a request with more is answered 431. */
export const ENVOY_MAX_HEADERS = 1000;
/** Most bytes of header names and values of one ext_authz request; a request with more is answered 431. */
export const ENVOY_MAX_HEADER_BYTES = 1 << 20;

/** An ext_authz request as a CheckHTTP request, or why its headers are refused. */
export type EnvoyCheckHttp = { ok: true; req: CheckHTTPRequest__Output } | { ok: false; status: 431; reason: string };

/**
 * The control point of an ext_authz call: the call's metadata `control-point`
 * (Envoy's `grpc_service.initial_metadata`) first, then the request's
 * `context_extensions["control-point"]` (an EnvoyFilter's per-route setting),
 * else `ingress`. An empty value counts as absent.
 */
export function envoyControlPoint(metadataValue: string | undefined, req: EnvoyAuth_CheckRequest__Output): string {
  if (metadataValue !== undefined && metadataValue !== '') return metadataValue;
  const ext = req.attributes?.context_extensions;
  const fromExt = ext !== null && ext !== undefined && Object.prototype.hasOwnProperty.call(ext, ENVOY_CONTROL_POINT_KEY) ? ext[ENVOY_CONTROL_POINT_KEY] : undefined;
  return typeof fromExt === 'string' && fromExt !== '' ? fromExt : ENVOY_DEFAULT_CONTROL_POINT;
}

/** A peer's socket address in CheckHTTP's shape; null when it has none (a pipe, an internal address). */
function socketAddress(peer: EnvoyAuth_AttributeContext_Peer__Output | null | undefined): SocketAddress__Output | null {
  const sa = peer?.address?.socket_address;
  if (sa === null || sa === undefined) return null;
  return { protocol: sa.protocol === 'UDP' ? 'UDP' : 'TCP', address: sa.address ?? '', port: sa.port_value ?? 0 };
}

function fromBase64(s: string): string {
  return s === '' ? '' : Buffer.from(s, 'base64').toString('utf8');
}

/**
 * The headers of an ext_authz request as one map: `headers` (Envoy joins
 * repeated fields with `,`), or `header_map` when Envoy sends that instead
 * (encode_raw_headers: raw values, repeated fields as separate entries,
 * joined here). Names lower-cased. Undefined past ENVOY_MAX_HEADERS or
 * ENVOY_MAX_HEADER_BYTES.
 */
function headersOf(http: EnvoyAuth_AttributeContext_HttpRequest__Output): Record<string, string> | undefined {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  let count = 0;
  let bytes = 0;
  const add = (name: string, value: string): boolean => {
    if (++count > ENVOY_MAX_HEADERS) return false;
    bytes += name.length + value.length;
    if (bytes > ENVOY_MAX_HEADER_BYTES) return false;
    const key = name.toLowerCase();
    const had = out[key];
    out[key] = had === undefined ? value : `${had},${value}`;
    return true;
  };
  const map = http.headers ?? {};
  for (const name of Object.keys(map)) if (!add(name, map[name])) return undefined;
  if (count === 0) {
    for (const h of http.header_map?.headers ?? []) {
      const value = h.value !== '' ? h.value : fromBase64(h.raw_value ?? '');
      if (typeof h.key === 'string' && h.key !== '' && !add(h.key, value)) return undefined;
    }
  }
  return { ...out };
}

/**
 * An ext_authz CheckRequest as the CheckHTTP request the agent decides on,
 * so that both ways in give a flow the same labels: method, path (Envoy's
 * `path` is the request target with its query), host, scheme, protocol,
 * size, headers, body (`body`, or `raw_body` as UTF-8 when Envoy packs it as
 * bytes); source and destination socket addresses (the destination finds
 * the flow's services).
 */
export function envoyToCheckHttp(req: EnvoyAuth_CheckRequest__Output, controlPoint: string): EnvoyCheckHttp {
  const attrs = req.attributes;
  const http = attrs?.request?.http;
  let request: HttpRequest__Output | null = null;
  if (http !== null && http !== undefined) {
    const headers = headersOf(http);
    if (headers === undefined) {
      return { ok: false, status: 431, reason: `the request has more than ${ENVOY_MAX_HEADERS} header fields or ${ENVOY_MAX_HEADER_BYTES} bytes of headers` };
    }
    const body = http.body !== '' ? http.body : fromBase64(http.raw_body ?? '');
    request = {
      method: http.method ?? '', headers, path: http.path ?? '', host: http.host ?? '', scheme: http.scheme ?? '',
      size: typeof http.size === 'number' ? http.size : -1, protocol: http.protocol ?? '', body, truncated_body: false,
    };
  }
  return {
    ok: true,
    req: {
      source: socketAddress(attrs?.source), destination: socketAddress(attrs?.destination),
      control_point: controlPoint, request, ramp_mode: false,
    },
  };
}
