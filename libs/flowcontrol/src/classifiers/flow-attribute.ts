import { CLASSIFIER_FIXED_ATTRIBUTE_PATHS, CLASSIFIER_HEADER_PATH_PREFIX, type ClassifierFixedAttributePath } from '@sluice/policies';
import type { CheckHTTPRequest__Output } from '@sluice/proto';

/** Reads one attribute of an HTTP flow; undefined when the flow lacks it. */
export type AttributeReader = (http: CheckHTTPRequest__Output) => string | undefined;

const HEADERS_PREFIX = CLASSIFIER_HEADER_PATH_PREFIX;
const BEARER = 'Bearer ';

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function port(v: unknown): string | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? String(v) : undefined;
}

// One reader per path the policy language lets a rule name (the key type makes the table complete).
const FIXED: Readonly<Record<ClassifierFixedAttributePath, AttributeReader>> = {
  'request.http.method': (h) => nonEmpty(h.request?.method),
  'request.http.path': (h) => nonEmpty(h.request?.path),
  'request.http.host': (h) => nonEmpty(h.request?.host) ?? headerOf(h, 'host') ?? headerOf(h, ':authority'),
  'request.http.scheme': (h) => nonEmpty(h.request?.scheme),
  'request.http.protocol': (h) => nonEmpty(h.request?.protocol),
  'request.http.size': (h) => {
    const s = h.request?.size;
    return typeof s === 'number' && Number.isFinite(s) && s >= 0 ? String(s) : undefined;
  },
  'request.http.body': (h) => (h.request?.truncated_body === true ? undefined : nonEmpty(h.request?.body)),
  'request.http.bearer': (h) => {
    const auth = headerOf(h, 'authorization');
    return auth !== undefined && auth.startsWith(BEARER) ? nonEmpty(auth.slice(BEARER.length)) : undefined;
  },
  'source.address': (h) => nonEmpty(h.source?.address),
  'source.port': (h) => port(h.source?.port),
  'destination.address': (h) => nonEmpty(h.destination?.address),
  'destination.port': (h) => port(h.destination?.port),
};

/** The attribute paths a classifier rule may read (`request.http.headers.<name>` for any header name). */
export const CLASSIFIER_ATTRIBUTE_PATHS: readonly string[] = Object.freeze([...CLASSIFIER_FIXED_ATTRIBUTE_PATHS, `${HEADERS_PREFIX}<name>`]);

function headerOf(h: CheckHTTPRequest__Output, lowerName: string): string | undefined {
  const headers = h.request?.headers;
  if (headers === undefined || headers === null) return undefined;
  if (Object.prototype.hasOwnProperty.call(headers, lowerName) && typeof headers[lowerName] === 'string') return headers[lowerName];
  for (const name of Object.keys(headers)) {
    if (name.toLowerCase() === lowerName && typeof headers[name] === 'string') return headers[name];
  }
  return undefined;
}

/**
 * The reader of an attribute path (`request.http.method`,
 * `request.http.headers.user-agent`, `source.address`, …; header names are
 * matched without case), or undefined for a path that names nothing.
 */
export function attributeReader(path: string): AttributeReader | undefined {
  if (Object.prototype.hasOwnProperty.call(FIXED, path)) return FIXED[path as ClassifierFixedAttributePath];
  if (path.startsWith(HEADERS_PREFIX) && path.length > HEADERS_PREFIX.length) {
    const name = path.slice(HEADERS_PREFIX.length).toLowerCase();
    return (h) => headerOf(h, name);
  }
  return undefined;
}
