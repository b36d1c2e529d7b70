import { parse as parseYaml } from 'yaml';
import { durationProblem, MAX_DURATION_TEXT, tryParseDuration } from '@sluice/config';
import { InvalidArgumentError, ErrorCode } from '@sluice/errors';
import { contractProblems, PublishedRateLimiter, RateLimiterDecision } from '@sluice/policies';
import { DEFAULT_MAX_BUCKETS } from '@sluice/tokenbucket';
import { MAX_CONTROL_POINT_LENGTH } from '../check/request-checks.js';

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
    super(`invalid local limiters: ${problems.map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`)).join('; ')}`, problems[0]?.path, ErrorCode.LOCAL_LIMITERS);
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

/** Where a problem the rate limiter's published schema finds sits in the file's entry. */
function filePath(path: string): string {
  if (path.startsWith('selectors[0].')) return path.slice('selectors[0].'.length);
  if (path === 'parameters.interval_ms') return 'interval';
  if (path === 'parameters.max_idle_time_ms') return 'max_idle_time';
  if (path.startsWith('parameters.')) return path.slice('parameters.'.length);
  return path;
}

/**
 * Check an already parsed local limiters document (a list). Each entry is a rate limiter: what it
 * shares with a published one (selector, parameters, capacity and fill) is checked with the rate
 * limiter's published schema, the shared validator; the file's own members (name, durations as
 * text, max_buckets, the cost options) here.
 */
export function validateLocalLimiters(doc: unknown): LocalLimiterSpec[] {
  const problems: { path: string; message: string }[] = [];
  if (!Array.isArray(doc)) throw new LocalLimitersError([{ path: '', message: `must be a list of rate limiters, got ${typeName(doc)}` }]);
  const specs: LocalLimiterSpec[] = [];
  /** Each entry's name (its default when unnamed), by index; undefined for an entry that is no object. */
  const names: (string | undefined)[] = [];
  doc.forEach((item: unknown, i) => {
    const at = `[${i}]`;
    const bad = (key: string, message: string): void => { problems.push({ path: `${at}.${key}`, message }); };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push({ path: at, message: `must be an object, got ${typeName(item)}` });
      return;
    }
    const o = item as Record<string, unknown>;
    for (const k of Object.keys(o)) if (!KEYS.has(k)) bad(k, `unknown key; allowed: ${[...KEYS].join(', ')}`);
    /** The member, null read as absent. */
    const get = (key: string): unknown => (o[key] === null ? undefined : o[key]);
    /** A member with a default must not be empty. */
    const defaulted = (key: string, dflt: string): unknown => {
      const v = get(key);
      if (v === '') bad(key, 'must not be empty');
      return v === undefined || v === '' ? dflt : v;
    };
    const finite = (key: string): unknown => {
      const v = get(key);
      if (typeof v === 'number' && !Number.isFinite(v)) {
        bad(key, `must be a finite number, got ${String(v)}`);
        return 0;
      }
      return v;
    };
    const dur = (key: string, dflt: number | undefined, zeroAllowed = false): number => {
      const v = get(key);
      if (v === undefined) {
        if (dflt === undefined) bad(key, 'is required (a duration such as "1s")');
        return dflt ?? 1;
      }
      const ms = typeof v === 'string' ? tryParseDuration(v) : undefined;
      if (ms === undefined) {
        if (typeof v === 'string' && durationProblem(v) === 'too-large') bad(key, `is too large: at most ${MAX_DURATION_TEXT} (about 292 years), got ${JSON.stringify(v)}`);
        else bad(key, `must be a duration such as "1s" or "1m30s", got ${JSON.stringify(v)}`);
        return 1;
      }
      if (ms < 0 || (ms === 0 && !zeroAllowed)) { bad(key, `must be ${zeroAllowed ? '>= 0' : '> 0'}, got ${JSON.stringify(v)}`); return 1; }
      return ms;
    };
    const bool = (key: string, dflt: boolean): boolean => {
      const v = get(key);
      if (v === undefined) return dflt;
      if (typeof v !== 'boolean') { bad(key, `must be a boolean, got ${typeName(v)}`); return dflt; }
      return v;
    };
    const maxBuckets = (): number => {
      const v = get('max_buckets');
      if (v === undefined) return DEFAULT_MAX_BUCKETS;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_BUCKETS_LIMIT) {
        bad('max_buckets', `must be an integer from 1 to ${MAX_BUCKETS_LIMIT}, got ${typeof v === 'number' ? String(v) : typeName(v)}`);
        return DEFAULT_MAX_BUCKETS;
      }
      return v;
    };
    const name = get('name');
    if (name !== undefined && typeof name !== 'string') bad('name', `must be a string, got ${typeName(name)}`);
    if (name === '') bad('name', 'must not be empty');
    names[i] = typeof name === 'string' && name !== '' ? name : `local-limiter-${i}`;
    const controlPoint = get('control_point');
    if (typeof controlPoint === 'string' && controlPoint.length > MAX_CONTROL_POINT_LENGTH) bad('control_point', `must be at most ${MAX_CONTROL_POINT_LENGTH} characters`);
    const agentGroup = defaulted('agent_group', 'default');
    const labelKey = get('label_key');
    const interval = dur('interval', undefined);
    // 0s: a bucket is never dropped for idling (only the key bound evicts it).
    const maxIdle = dur('max_idle_time', 7_200_000, true);
    // What the entry shares with a published rate limiter, checked with its schema.
    const selector = {
      control_point: controlPoint,
      service: defaulted('service', 'any'),
      agent_group: agentGroup,
      ...(get('label_matcher') !== undefined ? { label_matcher: get('label_matcher') } : {}),
    };
    const parameters = {
      ...(labelKey !== undefined && labelKey !== '' ? { label_key: labelKey } : {}),
      tokens_label_key: defaulted('tokens_label_key', 'tokens'),
      interval_ms: interval,
      continuous_fill: get('continuous_fill') ?? true,
      max_idle_time_ms: maxIdle,
    };
    const component = {
      kind: 'rate_limiter', policy_name: 'local', policy_hash: '', component_id: names[i],
      agent_group: typeof agentGroup === 'string' ? agentGroup : 'default', selectors: [selector], parameters,
    };
    const decision = { kind: 'rate_limiter', bucket_capacity: finite('bucket_capacity'), fill_amount: finite('fill_amount'), pass_through: false };
    const shared = [...contractProblems(PublishedRateLimiter, component), ...contractProblems(RateLimiterDecision, decision)];
    for (const p of shared) bad(filePath(p.path), p.message);
    const extra = {
      tokens_from_request_labels: bool('tokens_from_request_labels', false),
      fractional_tokens: bool('fractional_tokens', false),
      max_buckets: maxBuckets(),
    };
    if (shared.length > 0) return;
    const c = component as unknown as PublishedRateLimiter;
    const d = decision as unknown as RateLimiterDecision;
    const sel = c.selectors[0];
    specs.push({
      name: names[i] as string,
      control_point: sel.control_point,
      service: sel.service ?? 'any',
      agent_group: sel.agent_group ?? 'default',
      ...(sel.label_matcher !== undefined ? { label_matcher: sel.label_matcher } : {}),
      bucket_capacity: d.bucket_capacity,
      fill_amount: d.fill_amount,
      interval: c.parameters.interval_ms,
      ...(c.parameters.label_key !== undefined ? { label_key: c.parameters.label_key } : {}),
      tokens_label_key: c.parameters.tokens_label_key ?? 'tokens',
      ...extra,
      continuous_fill: c.parameters.continuous_fill,
      max_idle_time: c.parameters.max_idle_time_ms,
    });
  });
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === undefined) return;
    if (seen.has(name)) problems.push({ path: `[${i}].name`, message: `duplicate name "${name}"` });
    seen.add(name);
  });
  if (problems.length > 0) throw new LocalLimitersError(problems);
  return specs;
}
