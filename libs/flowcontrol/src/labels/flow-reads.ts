import { GRPC_METHOD_LABEL, GRPC_SERVICE_LABEL, HEADER_LABEL_PREFIX } from './http-labels.js';

/** What one registration reads of a flow. */
export interface FlowReads {
  /** Reads what cannot be bounded (an unknown component, a filter of unknown shape): send everything. */
  all: boolean;
  /** Header names in label form. */
  headers: Set<string>;
  /** The body (a classifier's attribute or JSON pointer). */
  body: boolean;
  /** The `baggage` header: a label that baggage may set is read, or a classifier adds labels (the answer rewrites baggage). */
  baggage: boolean;
}

/**
 * The labels every HTTP flow gets from the request's own fields, whatever
 * its headers (they win over baggage): reading them needs no header.
 */
const FIELD_LABELS: ReadonlySet<string> = new Set([
  'http.method', 'http.target', 'http.host', 'http.scheme', 'http.flavor', 'http.request_content_length',
]);

/** A header name as its label writes it: lower-cased, `-` → `_`. */
export function headerInterestName(name: string): string {
  return name.toLowerCase().replaceAll('-', '_');
}

export function noReads(): FlowReads {
  return { all: false, headers: new Set(), body: false, baggage: false };
}

/**
 * A label a component reads: a header label needs its header; any label but
 * the request's own fields may also come from a baggage entry (baggage
 * entries become labels, and a header label is set from baggage when the
 * header is absent), so it needs `baggage` too.
 */
export function readLabel(reads: FlowReads, key: unknown): void {
  if (typeof key !== 'string') {
    reads.all = true;
    return;
  }
  if (FIELD_LABELS.has(key)) return;
  reads.baggage = true;
  if (key.startsWith(HEADER_LABEL_PREFIX)) reads.headers.add(headerInterestName(key.slice(HEADER_LABEL_PREFIX.length)));
  // The gRPC labels come from the path of a request whose content type says gRPC.
  else if (key === GRPC_SERVICE_LABEL || key === GRPC_METHOD_LABEL) reads.headers.add('content_type');
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const MAX_DEPTH = 64;

function readExpression(reads: FlowReads, expr: unknown, depth: number): void {
  if (!isObject(expr) || depth > MAX_DEPTH) {
    reads.all = true;
    return;
  }
  for (const kind of Object.keys(expr)) {
    const v = expr[kind];
    switch (kind) {
      case 'all':
      case 'any': {
        const of = isObject(v) ? v.of : undefined;
        if (!Array.isArray(of)) reads.all = true;
        else for (const e of of) readExpression(reads, e, depth + 1);
        break;
      }
      case 'not':
        readExpression(reads, v, depth + 1);
        break;
      case 'label_equals':
      case 'label_exists':
      case 'label_matches':
        readLabel(reads, isObject(v) ? v.label : undefined);
        break;
      default:
        reads.all = true;
    }
  }
}

/**
 * The labels a label filter (`match_labels`, `match_expressions`,
 * `expression`) reads. Every part of the language names its labels, so a
 * valid filter is always bounded; a shape this reader does not know reads
 * everything.
 */
export function readLabelMatcher(reads: FlowReads, json: unknown): void {
  if (json === undefined) return;
  if (!isObject(json)) {
    reads.all = true;
    return;
  }
  for (const part of Object.keys(json)) {
    const v = json[part];
    if (v === undefined) continue;
    if (part === 'match_labels' && isObject(v)) {
      for (const key of Object.keys(v)) readLabel(reads, key);
    } else if (part === 'match_expressions' && Array.isArray(v)) {
      for (const req of v) readLabel(reads, isObject(req) ? req.key : undefined);
    } else if (part === 'expression') {
      readExpression(reads, v, 1);
    } else {
      reads.all = true;
    }
  }
}

