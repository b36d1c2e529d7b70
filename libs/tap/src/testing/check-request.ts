import type { CheckHTTPRequest } from '../check/types.js';

/** A minimal check request for `path` at control point `ingress`, as the check client's tests send it. */
export function checkRequest(path: string): CheckHTTPRequest {
  return {
    source: { protocol: 'TCP', address: '127.0.0.1', port: 1 },
    destination: { protocol: 'TCP', address: '127.0.0.1', port: 2 },
    control_point: 'ingress',
    request: { method: 'GET', headers: {}, path, host: 'h', scheme: 'http', size: -1, protocol: 'HTTP/1.1', body: '', truncated_body: false },
    ramp_mode: false,
  };
}
