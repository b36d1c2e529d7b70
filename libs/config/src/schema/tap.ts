import { Type } from '@sinclair/typebox';
import { address, bool, duration, int64 } from './fields.js';

/** Largest body prefix sent with a check (the separate tap's --body-bytes bound). */
export const TAP_BODY_BYTES_MAX = 1024 * 1024;

/**
 * The traffic tap served by the agent process itself (`tap` of the agent; a Sluice addition): a
 * reverse proxy in front of the workload's port that decides every request in-process through the
 * agent's engine, as the separate `sluice-tap` does over gRPC. Key names follow the separate tap's
 * flags (`--body-bytes` is `body_bytes`).
 */
export const AgentTapConfigSchema = Type.Object({
  enabled: bool(false, 'Serves the traffic tap in the agent process (a Sluice addition; the sidecar injector sets it): a reverse proxy in front of the workload that decides every request through this agent\'s engine, with no separate sluice-tap process.'),
  listen: address('hostname_port', ':8081', 'Address the tap serves on (sluice-tap --listen); a port of its own, not the server\'s or the dist cache\'s.'),
  upstream: address('empty|url', '', 'The workload, http://host:port (sluice-tap --upstream); required when enabled.'),
  control_point: Type.String({
    default: 'ingress', minLength: 1,
    description: 'Control point named in every check, 1..256 characters without spaces (sluice-tap --control-point).', 'x-spec-type': 'string',
  }),
  body_bytes: int64(8192, `Bytes of a JSON, form or text body sent with the check, 0..${TAP_BODY_BYTES_MAX} (sluice-tap --body-bytes).`, { minimum: 0, maximum: TAP_BODY_BYTES_MAX }),
  check_timeout: duration('250ms', 'Deadline of a check, 1ms..60s; past it the request goes through, or 503 with fail_closed (sluice-tap --check-timeout).'),
  upstream_timeout: duration('60s', 'Longest silence from the workload before 504, up to 1h; 0s for none (sluice-tap --upstream-timeout).'),
  fail_closed: bool(false, 'Answers 503 instead of forwarding when a check fails (sluice-tap --fail-closed); by default requests go through (fail open).'),
  max_request_header_bytes: int64(65_536, 'Largest request head (request line and headers) in bytes; past it 431 (sluice-tap --max-request-header-bytes).', { minimum: 1024, maximum: 1_048_576 }),
  max_response_header_bytes: int64(65_536, 'Largest response head from the workload in bytes; past it 502 (sluice-tap --max-response-header-bytes).', { minimum: 1024, maximum: 1_048_576 }),
  max_request_headers: int64(100, 'Most header fields in a request; past it 431 (sluice-tap --max-request-headers).', { minimum: 1, maximum: 10_000 }),
  max_response_headers: int64(100, 'Most header fields in a workload\'s response head; past it 502 (sluice-tap --max-response-headers).', { minimum: 1, maximum: 10_000 }),
  merge_slashes: bool(true, 'Merges runs of "/" in request paths into one before the check and the forward (sluice-tap --merge-slashes).'),
}, { additionalProperties: false });
