import { parse as parseYaml } from 'yaml';
import { durationProblem, MAX_DURATION_TEXT, tryParseDuration } from '@sluice/config';
import { InvalidArgumentError } from '@sluice/errors';
import { DEFAULT_MAX_BUCKETS } from './local-token-bucket-store.js';
import { MAX_CONTROL_POINT_LENGTH } from './request-checks.js';

/**
 * One rate limiter of a local limiters file (`flow_control.local_limiters`
 * style): a YAML (or JSON) list of these. Durations are Go duration strings.
 *
 * ```yaml
 * - control_point: ingress
 *   service: api.default.svc.cluster.local   # default: any
 *   agent_group: default                     # default: default
 *   label_matcher: { match_labels: { http.method: GET } }
 *   bucket_capacity: 100
 *   fill_amount: 10
 *   interval: 1s
 *   label_key: http.request.header.user_id   # default: one bucket for all
 *   tokens_label_key: tokens                 # default: tokens (classifier outputs only for HTTP flows)
 *   tokens_from_request_labels: false        # default: false (true: the client's baggage may set the cost)
 *   fractional_tokens: false                 # default: false (costs below 1 token count as 1)
 *   max_buckets: 100000                      # default: 100000 (least recently used evicted past it)
 *   continuous_fill: true                    # default: true
 *   max_idle_time: 7200s                     # default: 7200s (0s: never dropped for idling)
 *   name: per-user                           # default: local-limiter-<index>
 * ```
 */
export interface LocalLimiterSpec {
  name: string;
  control_point: string;
  service: string;
  agent_group: string;
  label_matcher?: Record<string, unknown>;
  bucket_capacity: number;
  fill_amount: number;
  /** Milliseconds. */
  interval: number;
  label_key?: string;
  tokens_label_key: string;
  tokens_from_request_labels: boolean;
  fractional_tokens: boolean;
  /** Buckets kept at most (one per value of label_key); past it the least recently used is evicted. */
  max_buckets: number;
  continuous_fill: boolean;
  /** Milliseconds. */
  max_idle_time: number;
}

const KEYS = new Set([
  'name', 'control_point', 'service', 'agent_group', 'label_matcher', 'bucket_capacity', 'fill_amount',
  'interval', 'label_key', 'tokens_label_key', 'tokens_from_request_labels', 'fractional_tokens', 'max_buckets',
  'continuous_fill', 'max_idle_time',
]);

/** The largest max_buckets a file may ask for. */
export const MAX_BUCKETS_LIMIT = 10_000_000;

/** Every problem of a local limiters file, each with its path (`[2].interval`). */
export class LocalLimitersError extends InvalidArgumentError {
  readonly problems: readonly { path: string; message: string }[];
  constructor(problems: { path: string; message: string }[]) {
    super(`invalid local limiters: ${problems.map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`)).join('; ')}`, problems[0]?.path, 'SLUICE_ERR_LOCAL_LIMITERS');
    this.name = 'LocalLimitersError';
    this.problems = problems;
  }
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Parse and check a local limiters file (YAML or JSON text). Throws LocalLimitersError listing every problem. */
export function loadLocalLimiters(text: string): LocalLimiterSpec[] {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new LocalLimitersError([{ path: '', message: `not valid YAML: ${(err as Error).message.split('\n')[0]}` }]);
  }
  if (doc === null || doc === undefined) return [];
  return validateLocalLimiters(doc);
}

/** Check an already parsed local limiters document (a list). */
export function validateLocalLimiters(doc: unknown): LocalLimiterSpec[] {
  const problems: { path: string; message: string }[] = [];
  if (!Array.isArray(doc)) throw new LocalLimitersError([{ path: '', message: `must be a list of rate limiters, got ${typeName(doc)}` }]);
  const specs: LocalLimiterSpec[] = [];
  doc.forEach((item: unknown, i) => {
    const at = `[${i}]`;
    const bad = (key: string, message: string): void => { problems.push({ path: `${at}.${key}`, message }); };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ path: at, message: `must be an object, got ${typeName(item)}` });
      return;
    }
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!KEYS.has(k)) bad(k, `unknown key; allowed: ${[...KEYS].join(', ')}`);
    const str = (key: string, required: boolean, dflt?: string): string | undefined => {
      const v = o[key];
      if (v === undefined || v === null) {
        if (required) bad(key, 'is required');
        return dflt;
      }
      if (typeof v !== 'string') { bad(key, `must be a string, got ${typeName(v)}`); return dflt; }
      if (v === '' && (required || dflt !== undefined)) { bad(key, 'must not be empty'); return dflt; }
      return v;
    };
    const num = (key: string): number => {
      const v = o[key];
      if (v === undefined || v === null) { bad(key, 'is required'); return 0; }
      if (typeof v !== 'number') { bad(key, `must be a number, got ${typeName(v)}`); return 0; }
      if (!Number.isFinite(v)) { bad(key, `must be a finite number, got ${String(v)}`); return 0; }
      if (v < 0) { bad(key, `must be >= 0, got ${v}`); return 0; }
      return v;
    };
    const dur = (key: string, dflt: number | undefined, zeroAllowed = false): number => {
      const v = o[key];
      if (v === undefined || v === null) {
        if (dflt === undefined) bad(key, 'is required (a duration such as "1s")');
        return dflt ?? 0;
      }
      const ms = typeof v === 'string' ? tryParseDuration(v) : undefined;
      if (ms === undefined) {
        if (typeof v === 'string' && durationProblem(v) === 'too-large') bad(key, `is too large: at most ${MAX_DURATION_TEXT} (about 292 years), got ${JSON.stringify(v)}`);
        else bad(key, `must be a duration such as "1s" or "1m30s", got ${JSON.stringify(v)}`);
        return 0;
      }
      if (ms < 0 || (ms === 0 && !zeroAllowed)) { bad(key, `must be ${zeroAllowed ? '>= 0' : '> 0'}, got ${JSON.stringify(v)}`); return 0; }
      return ms;
    };
    const control_point = str('control_point', true) ?? '';
    if (control_point.length > MAX_CONTROL_POINT_LENGTH) bad('control_point', `must be at most ${MAX_CONTROL_POINT_LENGTH} characters`);
    const lm = o.label_matcher;
    if (lm !== undefined && (typeof lm !== 'object' || lm === null || Array.isArray(lm))) bad('label_matcher', `must be an object, got ${typeName(lm)}`);
    const bool = (key: string, dflt: boolean): boolean => {
      const v = o[key];
      if (v === undefined || v === null) return dflt;
      if (typeof v !== 'boolean') { bad(key, `must be a boolean, got ${typeName(v)}`); return dflt; }
      return v;
    };
    const maxBuckets = (): number => {
      const v = o.max_buckets;
      if (v === undefined || v === null) return DEFAULT_MAX_BUCKETS;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_BUCKETS_LIMIT) {
        bad('max_buckets', `must be an integer from 1 to ${MAX_BUCKETS_LIMIT}, got ${typeof v === 'number' ? String(v) : typeName(v)}`);
        return DEFAULT_MAX_BUCKETS;
      }
      return v;
    };
    specs.push({
      name: str('name', false, `local-limiter-${i}`) ?? `local-limiter-${i}`,
      control_point,
      service: str('service', false, 'any') ?? 'any',
      agent_group: str('agent_group', false, 'default') ?? 'default',
      ...(lm !== undefined && typeof lm === 'object' && lm !== null && !Array.isArray(lm) ? { label_matcher: lm as Record<string, unknown> } : {}),
      bucket_capacity: num('bucket_capacity'),
      fill_amount: num('fill_amount'),
      interval: dur('interval', undefined),
      ...(str('label_key', false) ? { label_key: str('label_key', false) } : {}),
      tokens_label_key: str('tokens_label_key', false, 'tokens') ?? 'tokens',
      tokens_from_request_labels: bool('tokens_from_request_labels', false),
      fractional_tokens: bool('fractional_tokens', false),
      max_buckets: maxBuckets(),
      continuous_fill: bool('continuous_fill', true),
      // 0s: a bucket is never dropped for idling (only the key bound evicts it).
      max_idle_time: dur('max_idle_time', 7_200_000, true),
    });
  });
  const names = new Set<string>();
  specs.forEach((s, i) => {
    if (names.has(s.name)) problems.push({ path: `[${i}].name`, message: `duplicate name "${s.name}"` });
    names.add(s.name);
  });
  if (problems.length > 0) throw new LocalLimitersError(problems);
  return specs;
}
