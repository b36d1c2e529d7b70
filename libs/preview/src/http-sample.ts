import type { CheckHTTPRequest__Output, JsonObject, JsonValue, SocketAddress__Output } from '@sluice/proto';
import { PREVIEW_STRUCT_MAX_DEPTH } from './preview-config.js';

function put(obj: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function socketAddress(a: SocketAddress__Output | null | undefined): JsonObject {
  return { socketAddress: { address: a?.address ?? '', port: a?.port ?? 0 } };
}

/** Path segments of a request target (before `?`), URL-decoded, empty ones left out. */
export function parsedPath(target: string): string[] {
  const q = target.indexOf('?');
  const path = q >= 0 ? target.slice(0, q) : target;
  return path.split('/').filter((s) => s !== '').map(decode);
}

/** `{key: [values]}` of URL-encoded pairs (a query string or a form body). */
export function parsedPairs(text: string): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const list = Object.prototype.hasOwnProperty.call(out, k) ? (out[k] as string[]) : undefined;
    if (list !== undefined) list.push(v);
    else put(out, k, [v]);
  }
  return out;
}

function contentType(headers: Readonly<Record<string, string>>): string {
  for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-type') return headers[name].toLowerCase();
  return '';
}

/** Nesting (objects and arrays) of a JSON value is at most `max`; never recurses past it. */
function nestsWithin(value: JsonValue, max: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (max <= 0) return false;
  const items = Array.isArray(value) ? value : Object.values(value);
  for (const item of items) if (!nestsWithin(item, max - 1)) return false;
  return true;
}

/**
 * A sample travels as a google.protobuf.Struct, whose nesting is bounded: `parsed_body`
 * sits one level down, so a JSON body nesting deeper than that is left unparsed (null).
 */
const MAX_BODY_NESTING = PREVIEW_STRUCT_MAX_DEPTH - 1;

function parsedBody(body: string, type: string): JsonValue {
  if (body === '') return null;
  if (type.includes('json')) {
    try {
      const value = JSON.parse(body) as JsonValue;
      return nestsWithin(value, MAX_BODY_NESTING) ? value : null;
    } catch {
      return null;
    }
  }
  if (type.startsWith('application/x-www-form-urlencoded')) return parsedPairs(body);
  return null;
}

/** Whether a JSON body is valid and nests within the bound (then its text is its parsed value, as JSON). */
function jsonBodyFits(body: string): boolean {
  try {
    return nestsWithin(JSON.parse(body) as JsonValue, MAX_BODY_NESTING);
  } catch {
    return false;
  }
}

/**
 * The JSON text of httpSample(req), for the HTTP preview: a JSON body is checked but not
 * serialized again, its text goes in as `parsed_body` (the same JSON value), which halves the
 * cost of answering a preview of large JSON bodies.
 */
export function httpSampleJson(req: CheckHTTPRequest__Output): string {
  const r = req.request;
  const body = r?.body ?? '';
  const type = contentType(r?.headers ?? {});
  if (body === '' || !type.includes('json')) return JSON.stringify(httpSample(req));
  const sample = httpSample(req, false);
  const text = JSON.stringify(sample);
  const fits = jsonBodyFits(body);
  // parsed_body is last and null in `sample`: put the body's own text there.
  const tail = ',"parsed_body":null,"truncated_body":';
  const at = text.lastIndexOf(tail);
  if (!fits || at < 0) return text;
  return `${text.slice(0, at)},"parsed_body":${body},"truncated_body":${text.slice(at + tail.length)}`;
}

/** A sample of an HTTP request, in the shape docs/guides/preview.md gives for the HTTP preview. */
export function httpSample(req: CheckHTTPRequest__Output, parseBody = true): JsonObject {
  const r = req.request;
  const headers: Record<string, JsonValue> = {};
  const rawHeaders = r?.headers ?? {};
  for (const name of Object.keys(rawHeaders)) put(headers, name, rawHeaders[name]);
  const target = r?.path ?? '';
  const q = target.indexOf('?');
  const body = r?.body ?? '';
  return {
    attributes: {
      request: {
        http: {
          method: r?.method ?? '',
          path: target,
          host: r?.host ?? '',
          scheme: r?.scheme ?? '',
          size: r?.size ?? -1,
          protocol: r?.protocol ?? '',
          headers,
          body,
        },
      },
      source: socketAddress(req.source),
      destination: socketAddress(req.destination),
    },
    parsed_path: parsedPath(target),
    parsed_query: q >= 0 ? parsedPairs(target.slice(q + 1)) : {},
    parsed_body: parseBody ? parsedBody(body, contentType(rawHeaders)) : null,
    truncated_body: r?.truncated_body === true,
  };
}
