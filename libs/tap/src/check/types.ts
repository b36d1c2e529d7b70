/**
 * The CheckHTTP messages as @sluice/proto loads them (keepCase, enums as
 * strings, longs as numbers, defaults filled in, oneofs named).
 */
export interface SocketAddress {
  protocol: 'TCP' | 'UDP';
  address: string;
  port: number;
}

export interface HttpRequestAttributes {
  method: string;
  headers: Record<string, string>;
  path: string;
  host: string;
  scheme: string;
  size: number;
  protocol: string;
  body: string;
  truncated_body: boolean;
}

export interface CheckHTTPRequest {
  source: SocketAddress;
  destination: SocketAddress;
  control_point: string;
  request: HttpRequestAttributes;
  ramp_mode: boolean;
}

export interface HeaderValue {
  key: string;
  value: string;
}

export interface GoogleDuration {
  seconds: number;
  nanos: number;
}

export interface CheckHTTPResponse {
  http_response?: 'ok_response' | 'denied_response';
  ok_response?: { headers: HeaderValue[] } | null;
  denied_response?: { status: number; headers: HeaderValue[]; body: string } | null;
  check_response?: {
    decision_type?: string;
    reject_reason?: string;
    wait_time?: GoogleDuration | null;
  } | null;
}
