import type { Registry } from 'prom-client';
/** `FlowPreviewConfig` (`flow_control.preview_service`): `enabled` turns the flow preview service on. */
export type { FlowPreviewConfig } from '@sluice/config';

export interface PreviewServiceOptions {
  /**
   * Longest wait of one preview call, in ms (default 30 000). It must end
   * inside the HTTP server's write_timeout: the agent sets it to
   * min(30 s, write_timeout − 1 s).
   */
  maxWaitMs?: number;
  /** Previews running at once at most (default 100); past it: RESOURCE_EXHAUSTED / 429. */
  maxActive?: number;
  /** Bytes of samples one preview holds at most (default PREVIEW_MAX_BYTES); when full it answers with what it has. */
  maxBytesPerPreview?: number;
  /** Bytes of samples all previews together hold at most (default PREVIEWS_MAX_TOTAL_BYTES); past it samples are skipped. */
  maxTotalBytes?: number;
  /** Where `flow_preview_active` (previews running now) is exported; none when unset. */
  metrics?: Registry;
}

/**
 * Bytes of samples one preview keeps (an HTTP sample counts its body, path, host and headers
 * plus SAMPLE_OVERHEAD_BYTES): 1 000 requests of 8 KiB bodies are 8 MiB of text, tens of MiB once
 * parsed for the answer. A preview whose samples reach it answers with what it has.
 */
export const PREVIEW_MAX_BYTES = 4 << 20;
/** Bytes of samples all running previews keep together; a sample that does not fit is skipped (counted in none). */
export const PREVIEWS_MAX_TOTAL_BYTES = 16 << 20;
/** What a sample costs besides its strings: the objects around them. */
export const SAMPLE_OVERHEAD_BYTES = 256;

export const DEFAULT_SAMPLES = 10;
export const MAX_SAMPLES = 1000;
export const DEFAULT_MAX_WAIT_MS = 30_000;
export const PREVIEW_BODY_LIMIT_BYTES = 1 << 20;

/**
 * The deepest google.protobuf.Struct (objects and arrays, the top level being 1) that a
 * preview request or response carries: protobufjs decodes at most 100 nested messages, and
 * each level is a Value plus a Struct or ListValue inside the top-level message.
 */
export const PREVIEW_STRUCT_MAX_DEPTH = 50;

export const PREVIEW_DISABLED_MESSAGE =
  'flow preview is disabled: set flow_control.preview_service.enabled to true ' +
  '(environment variable SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED=true) to enable it';
