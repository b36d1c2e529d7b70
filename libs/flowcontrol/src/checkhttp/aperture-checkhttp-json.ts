import type { ApertureCheckHTTPRequest__Output, ApertureCheckHTTPResponse } from '@sluice/proto';
import { GrpcCode } from '@sluice/errors';

/**
 * The per-request path of gateways (nginx's Lua handler): Aperture's CheckHTTPRequest read
 * straight from its proto3 JSON, and the answer written straight to JSON, without the
 * reflection-driven converters and the protobuf round trips of the generic path.
 *
 * Only the shape gateways send is read here: known field names (`.proto` or JSON names),
 * strings where strings go, whole numbers (or their decimal strings) where numbers go, the
 * protocol as TCP/UDP. Anything else — a null, an unknown field, a wrong type, a number out
 * of range — answers undefined, and the caller takes the generic path, which refuses bad
 * input with its JSON path. The unit tests hold both paths to the same result.
 */

type Json = Record<string, unknown>;
type SocketAddress = NonNullable<ApertureCheckHTTPRequest__Output['source']>;
type HttpRequest = NonNullable<ApertureCheckHTTPRequest__Output['request']>;

const UINT32_MAX = 4294967295;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A uint32 from a JSON number or decimal string; undefined when it is neither or out of range. */
function uint32(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,10}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= UINT32_MAX ? n : undefined;
}

/** An int64 from a JSON number or decimal string, within the safe integers (else undefined). */
function int64(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d{1,16}$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) ? n + 0 : undefined; // + 0: -0 is 0, as the wire has it
}

function socketAddress(v: unknown): SocketAddress | null | undefined {
  if (v === undefined) return null;
  if (!isObject(v)) return undefined;
  const out: SocketAddress = { protocol: 'TCP', address: '', port: 0 };
  for (const key in v) {
    const x = v[key];
    if (key === 'address') {
      if (typeof x !== 'string') return undefined;
      out.address = x;
    } else if (key === 'port') {
      const port = uint32(x);
      if (port === undefined) return undefined;
      out.port = port;
    } else if (key === 'protocol') {
      if (x === 'TCP' || x === 0) out.protocol = 'TCP';
      else if (x === 'UDP' || x === 1) out.protocol = 'UDP';
      else return undefined;
    } else {
      return undefined;
    }
  }
  return out;
}

const STRING_FIELDS = new Set(['method', 'path', 'host', 'scheme', 'protocol', 'body']);

function headersOf(v: unknown): Record<string, string> | undefined {
  if (!isObject(v)) return undefined;
  const out: Record<string, string> = {};
  for (const key in v) {
    const x = v[key];
    if (typeof x !== 'string') return undefined;
    out[key] = x;
  }
  return out;
}

function httpRequest(v: unknown): HttpRequest | null | undefined {
  if (v === undefined) return null;
  if (!isObject(v)) return undefined;
  const out: HttpRequest = { method: '', headers: {}, path: '', host: '', scheme: '', size: 0, protocol: '', body: '' };
  for (const key in v) {
    const x = v[key];
    if (STRING_FIELDS.has(key)) {
      if (typeof x !== 'string') return undefined;
      (out as unknown as Record<string, string>)[key] = x;
    } else if (key === 'size') {
      const size = int64(x);
      if (size === undefined) return undefined;
      out.size = size;
    } else if (key === 'headers') {
      const headers = headersOf(x);
      if (headers === undefined) return undefined;
      out.headers = headers;
    } else {
      return undefined;
    }
  }
  return out;
}

/** The request as the gRPC method would see it, or undefined when the generic path must read it. */
export function readApertureCheckHttpRequest(body: unknown): ApertureCheckHTTPRequest__Output | undefined {
  if (!isObject(body)) return undefined;
  let source: SocketAddress | null | undefined = null;
  let destination: SocketAddress | null | undefined = null;
  let request: HttpRequest | null | undefined = null;
  let controlPoint = '';
  for (const key in body) {
    const x = body[key];
    if (key === 'control_point' || key === 'controlPoint') {
      if (typeof x !== 'string') return undefined;
      controlPoint = x;
    } else if (key === 'source') {
      source = socketAddress(x);
      if (source === undefined) return undefined;
    } else if (key === 'destination') {
      destination = socketAddress(x);
      if (destination === undefined) return undefined;
    } else if (key === 'request') {
      request = httpRequest(x);
      if (request === undefined) return undefined;
    } else {
      return undefined;
    }
  }
  return { source, destination, request, control_point: controlPoint };
}

/** A JSON object member list from a string map, keys and values escaped by JSON.stringify. */
function mapJson(m: Readonly<Record<string, string>> | undefined): string {
  let out = '';
  for (const key in m) out += `${out === '' ? '' : ','}${JSON.stringify(key)}:${JSON.stringify(m[key])}`;
  return `{${out}}`;
}

/**
 * The proto3 JSON of an answer toApertureResponse built (status, ok_response or denied_response,
 * dynamic_metadata of one string value): what the generic converters write for it, member for
 * member. Undefined for any other shape (the caller takes the generic path).
 */
export function writeApertureCheckHttpResponse(r: ApertureCheckHTTPResponse): string | undefined {
  const status = r.status;
  if (status === null || status === undefined || (status.details !== undefined && status.details.length > 0)) return undefined;
  let out = `{"status":{"code":${status.code ?? GrpcCode.OK},"message":${JSON.stringify(status.message ?? '')},"details":[]}`;
  const denied = r.denied_response;
  const ok = r.ok_response;
  if (denied !== null && denied !== undefined) {
    if (ok !== null && ok !== undefined) return undefined;
    out += `,"denied_response":{"status":${denied.status ?? 0},"headers":${mapJson(denied.headers)},"body":${JSON.stringify(denied.body ?? '')}}`;
  } else if (ok !== null && ok !== undefined) {
    out += `,"ok_response":{"headers":${mapJson(ok.headers)}}`;
  } else {
    return undefined;
  }
  const metadata = r.dynamic_metadata;
  if (metadata !== null && metadata !== undefined) {
    const fields = metadata.fields ?? {};
    const members: string[] = [];
    for (const key in fields) {
      const v = fields[key];
      if (typeof v?.stringValue !== 'string' || Object.keys(v).length !== 1) return undefined;
      members.push(`${JSON.stringify(key)}:${JSON.stringify(v.stringValue)}`);
    }
    out += `,"dynamic_metadata":{${members.join(',')}}`;
  }
  return `${out}}`;
}
