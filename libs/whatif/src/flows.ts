import { httpFlowLabels } from '@sluice/flowcontrol';
import type { CheckHTTPRequest__Output, SocketAddress__Output } from '@sluice/proto';

/** One live flow to replay: when it arrived, its labels and, for an HTTP sample, the request behind it. */
export interface SampleFlow {
  readonly arrivalMs: number;
  readonly labels: Readonly<Record<string, string>>;
  readonly http?: CheckHTTPRequest__Output;
  /** The agent that saw it. */
  readonly agent?: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(v)) return out;
  for (const k of Object.keys(v)) {
    const value = v[k];
    if (typeof value === 'string') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function address(v: unknown): SocketAddress__Output | null {
  const sa = isObject(v) && isObject(v.socketAddress) ? v.socketAddress : undefined;
  if (sa === undefined) return null;
  return { address: typeof sa.address === 'string' ? sa.address : '', port: typeof sa.port === 'number' ? sa.port : 0, protocol: 'TCP' as SocketAddress__Output['protocol'] };
}

/** The CheckHTTP request an HTTP preview sample describes (its `attributes`), as the agent decoded it. */
export function requestOfHttpSample(sample: Json, controlPoint: string): CheckHTTPRequest__Output | undefined {
  const attrs = isObject(sample.attributes) ? sample.attributes : undefined;
  const http = attrs !== undefined && isObject(attrs.request) && isObject(attrs.request.http) ? attrs.request.http : undefined;
  if (http === undefined) return undefined;
  const str = (k: string): string => (typeof http[k] === 'string' ? http[k] : '');
  return {
    source: address(attrs?.source),
    destination: address(attrs?.destination),
    control_point: controlPoint,
    request: {
      method: str('method'), path: str('path'), host: str('host'), scheme: str('scheme'), protocol: str('protocol'), body: str('body'),
      size: typeof http.size === 'number' ? http.size : -1,
      headers: stringMap(http.headers),
      truncated_body: sample.truncated_body === true,
    },
    ramp_mode: false,
  };
}

/**
 * The flows of one agent's preview answer (`{samples: [...]}` of the labels or the HTTP preview):
 * a labels sample gives its labels; an HTTP sample its request, labelled as the agent labels it.
 * Samples without an arrival time are left out (an agent older than the arrival field).
 */
export function flowsOfPreview(body: unknown, controlPoint: string, agent?: string): SampleFlow[] {
  const samples = isObject(body) && Array.isArray(body.samples) ? body.samples : [];
  const out: SampleFlow[] = [];
  for (const s of samples) {
    if (!isObject(s) || typeof s.arrival_unix_ms !== 'number' || !Number.isFinite(s.arrival_unix_ms)) continue;
    const base = { arrivalMs: s.arrival_unix_ms, ...(agent !== undefined ? { agent } : {}) };
    if (isObject(s.labels)) {
      out.push({ ...base, labels: stringMap(s.labels) });
      continue;
    }
    const http = requestOfHttpSample(s, controlPoint);
    if (http !== undefined) out.push({ ...base, labels: httpFlowLabels(http.request), http });
  }
  return out;
}
