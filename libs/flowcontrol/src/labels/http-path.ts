/**
 * One normal form for HTTP request targets, so that a request is decided on
 * the same path the workload is sent. Every way HTTP traffic reaches the
 * agent labels the normalized target, and a proxy forwards exactly that
 * target (or refuses the request with 400 when the target is ambiguous).
 *
 * - absolute-form (`GET http://api/admin`) becomes origin-form (`/admin`);
 *   the host then comes from the target's authority (RFC 9112 §3.2.2);
 * - percent-encoded unreserved characters (ALPHA, DIGIT, `-._~`) are decoded,
 *   the hex digits of the other escapes upper-cased (RFC 3986 §6.2.2);
 * - `.` and `..` segments are removed (RFC 3986 §5.2.4), after decoding, so
 *   `%2e%2e` is a `..` too;
 * - runs of `/` are merged into one when `mergeSlashes` is set (as Envoy's
 *   `merge_slashes`);
 * - the query is kept as it came.
 *
 * Refused (the caller answers 400): an encoded `/` (`%2F`) or `\` (`%5C`), a
 * raw `\`, NUL and other control characters (raw, or NUL encoded), a `#`, a
 * malformed escape, `..` above the root, an authority with user information,
 * a scheme other than http(s), and any other target form but `*`.
 */

export interface RequestTargetOptions {
  /** Merge runs of `/` in the path into one. */
  readonly mergeSlashes: boolean;
}

/** The normal form of a target: `target` (origin-form, or `*`) and, from an absolute-form target, its authority. */
export interface NormalTarget {
  readonly ok: true;
  readonly target: string;
  /** The authority of an absolute-form target (it replaces the Host header); undefined otherwise. */
  readonly host: string | undefined;
}

/** A target refused as ambiguous or malformed. */
export interface RefusedTarget {
  readonly ok: false;
  readonly reason: string;
}

export type RequestTarget = NormalTarget | RefusedTarget;

const SLASH = 0x2f;
const DOT = 0x2e;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const QUESTION = 0x3f;
/** An authority without user information: reg-name or IPv4 (RFC 3986 unreserved and sub-delims), or an IP literal, and a port. */
const HOST = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]*)?$/;
const ABSOLUTE = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.*)$/s;

/**
 * Whether an origin-form target is already in normal form: the fast check
 * hot paths make before anything else. False (look closer) for any `%`,
 * `\`, `#`, control character or space in the path, a segment starting with
 * `.`, `//` when merging, a control character in the query, or a target not
 * starting with `/`. It never allocates.
 */
export function isNormalTarget(target: string, mergeSlashes: boolean): boolean {
  const n = target.length;
  if (n === 0 || target.charCodeAt(0) !== SLASH) return false;
  let prev = SLASH;
  let i = 1;
  for (; i < n; i++) {
    const c = target.charCodeAt(i);
    if (c === QUESTION) break;
    if (c <= 0x20 || c === PERCENT || c === BACKSLASH || c === HASH || c === 0x7f) return false;
    if (prev === SLASH && (c === DOT || (c === SLASH && mergeSlashes))) return false;
    prev = c;
  }
  for (; i < n; i++) {
    const c = target.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || c === HASH) return false;
  }
  return true;
}

function refused(reason: string): RefusedTarget {
  return { ok: false, reason };
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  return -1;
}

function isUnreserved(v: number): boolean {
  return (v >= 0x41 && v <= 0x5a) || (v >= 0x61 && v <= 0x7a) || (v >= 0x30 && v <= 0x39) || v === 0x2d || v === DOT || v === 0x5f || v === 0x7e;
}

/** The path with its escapes normalized, or why it is refused. */
function decodePath(path: string): string | RefusedTarget {
  let out = '';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === PERCENT) {
      const hi = i + 2 < path.length ? hexValue(path.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexValue(path.charCodeAt(i + 2));
      if (lo < 0) return refused('the path has a malformed percent-encoding');
      const v = hi * 16 + lo;
      if (v === SLASH) return refused('the path has an encoded "/" (%2F)');
      if (v === BACKSLASH) return refused('the path has an encoded "\\" (%5C)');
      if (v === 0) return refused('the path has an encoded NUL (%00)');
      out += isUnreserved(v) ? String.fromCharCode(v) : `%${v < 16 ? '0' : ''}${v.toString(16).toUpperCase()}`;
      i += 2;
      continue;
    }
    if (c === BACKSLASH) return refused('the path has a "\\"');
    if (c === HASH) return refused('the target has a fragment ("#")');
    if (c < 0x20 || c === 0x7f) return refused('the path has a control character');
    out += path[i];
  }
  return out;
}

/** RFC 3986 §5.2.4 on a decoded path starting with `/`; `..` above the root is refused. */
function removeDotSegments(path: string, mergeSlashes: boolean): string | RefusedTarget {
  const segments = path.split('/');
  const out: string[] = [];
  const last = segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const s = segments[i] as string;
    if (s === '.') {
      if (i === last) out.push('');
      continue;
    }
    if (s === '..') {
      if (out.length === 0) return refused('the path has a ".." segment above the root');
      out.pop();
      if (i === last) out.push('');
      continue;
    }
    if (s === '' && mergeSlashes && i !== last) continue;
    out.push(s);
  }
  return `/${out.join('/')}`;
}

/**
 * The normal form of a request target (see the module's description), or
 * why it is refused. A target already in normal form is answered as it came
 * (the same string) after one scan.
 */
export function normalizeRequestTarget(target: string, opts: RequestTargetOptions): RequestTarget {
  if (isNormalTarget(target, opts.mergeSlashes)) return { ok: true, target, host: undefined };
  if (target === '*') return { ok: true, target, host: undefined };
  let rest = target;
  let host: string | undefined;
  if (target.charCodeAt(0) !== SLASH) {
    const m = ABSOLUTE.exec(target);
    if (m === null) return refused('the request target is neither a path nor an absolute http(s) URI');
    const scheme = (m[1] as string).toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') return refused(`the request target's scheme "${scheme}" is not http or https`);
    host = m[2] as string;
    if (host === '') return refused('the request target has no host');
    if (host.includes('@')) return refused('the request target has user information');
    if (!HOST.test(host)) return refused('the request target\'s host has characters a host cannot have');
    rest = m[3] as string;
    if (rest === '' || rest.charCodeAt(0) === QUESTION) rest = `/${rest}`;
  }
  const q = rest.indexOf('?');
  const rawPath = q < 0 ? rest : rest.slice(0, q);
  const query = q < 0 ? '' : rest.slice(q);
  for (let i = 0; i < query.length; i++) {
    const c = query.charCodeAt(i);
    if (c === HASH) return refused('the target has a fragment ("#")');
    if (c < 0x20 || c === 0x7f) return refused('the query has a control character');
  }
  const decoded = decodePath(rawPath);
  if (typeof decoded !== 'string') return decoded;
  const path = removeDotSegments(decoded, opts.mergeSlashes);
  if (typeof path !== 'string') return path;
  return { ok: true, target: path + query, host };
}
