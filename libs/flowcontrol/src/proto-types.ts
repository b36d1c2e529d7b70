/**
 * TypeScript shapes of the flow-control messages as grpc-js hands them over
 * with the Sluice loader options (snake_case fields, enums as strings,
 * int64 as number). Well-known types (Timestamp, Duration) keep protobufjs'
 * own field names.
 */

export interface ProtoTimestamp { seconds: number; nanos: number }
export interface ProtoDuration { seconds: number; nanos: number }

export interface CheckRequest {
  control_point: string;
  labels: Record<string, string>;
  ramp_mode: boolean;
  cache_lookup_request?: unknown;
  expect_end: boolean;
}

export type RejectReason =
  | 'REJECT_REASON_NONE'
  | 'REJECT_REASON_RATE_LIMITED'
  | 'REJECT_REASON_NO_TOKENS'
  | 'REJECT_REASON_NOT_SAMPLED'
  | 'REJECT_REASON_NO_MATCHING_RAMP'
  | 'REJECT_REASON_REGULATED';

export type DecisionType = 'DECISION_TYPE_ACCEPTED' | 'DECISION_TYPE_REJECTED';

export type StatusCodeName = 'Empty' | 'OK' | 'BadRequest' | 'Forbidden' | 'TooManyRequests' | 'InternalServerError' | 'ServiceUnavailable' | 'GatewayTimeout';

export interface TokensInfo { remaining: number; current: number; consumed: number }

export interface LimiterDecisionMessage {
  policy_name: string;
  policy_hash: string;
  component_id: string;
  dropped: boolean;
  reason: 'LIMITER_REASON_UNSPECIFIED' | 'LIMITER_REASON_KEY_NOT_FOUND';
  denied_response_status_code: StatusCodeName;
  wait_time: ProtoDuration | null;
  rate_limiter_info?: { label: string; tokens_info: TokensInfo };
  load_scheduler_info?: { workload_index: string; tokens_info: TokensInfo; priority: number };
  sampler_info?: { label: string };
}

export interface ClassifierInfoMessage {
  policy_name: string;
  policy_hash: string;
  classifier_index: number;
  error: 'ERROR_NONE' | 'ERROR_EVAL_FAILED';
}

export interface CheckResponse {
  start: ProtoTimestamp;
  end: ProtoTimestamp;
  services: string[];
  control_point: string;
  flow_label_keys: string[];
  telemetry_flow_labels: Record<string, string>;
  decision_type: DecisionType;
  reject_reason: RejectReason;
  classifier_infos: ClassifierInfoMessage[];
  flux_meter_infos: { flux_meter_name: string }[];
  limiter_decisions: LimiterDecisionMessage[];
  wait_time: ProtoDuration | null;
  denied_response_status_code: StatusCodeName;
  expect_end: boolean;
}

export interface SocketAddress {
  protocol?: 'TCP' | 'UDP';
  address: string;
  port: number;
}

/** The attributes of one HTTP request (checkhttp.proto HttpRequest). */
export interface HttpRequestAttributes {
  method: string;
  headers: Record<string, string>;
  /** Path with query, as sent on the request line. */
  path: string;
  host: string;
  scheme: string;
  /** Content length; -1 when unknown. */
  size: number;
  /** `HTTP/1.0`, `HTTP/1.1`, `HTTP/2`. */
  protocol: string;
  body: string;
  truncated_body: boolean;
}

export interface CheckHTTPRequest {
  source?: SocketAddress | null;
  destination?: SocketAddress | null;
  control_point: string;
  request?: HttpRequestAttributes | null;
  ramp_mode?: boolean;
}

export interface HeaderValue { key: string; value: string }

export interface CheckHTTPResponse {
  ok_response?: { headers: HeaderValue[] };
  denied_response?: { status: number; headers: HeaderValue[]; body: string };
  check_response: CheckResponse;
}

export interface ControlPointMessage {
  control_point: string;
  service: string;
  type: string;
  last_seen: ProtoTimestamp;
  flows: number;
}
