import type { IncomingMessage, ServerResponse } from 'node:http';
import { consumeExport, otlpMessages, type ExportRequestMsg, type SpanConsumer } from './otlp-trace-service.js';

/** The OTLP/HTTP trace path. */
export const OTLP_TRACES_PATH = '/v1/traces';
/** Largest export body read; a larger one is answered 413 (the OTLP/gRPC intake's message bound). */
export const OTLP_HTTP_MAX_BODY_BYTES = 4 * 1024 * 1024;

class HttpRefusal extends Error {
  constructor(readonly status: number, readonly code: number, message: string) {
    super(message);
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      reject(new HttpRefusal(413, 8, `export body exceeds ${limit} bytes`));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new HttpRefusal(413, 8, `export body exceeds ${limit} bytes`));
        req.resume();
        req.removeAllListeners('data');
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function mediaType(req: IncomingMessage): string {
  return String(req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
}

/** The export request of a body: protobuf (`application/x-protobuf`) or OTLP JSON (`application/json`). */
export function decodeOtlpHttpExport(type: string, body: Buffer): ExportRequestMsg {
  const m = otlpMessages().ExportTraceServiceRequest;
  if (type === 'application/x-protobuf') {
    try {
      return m.decode(body);
    } catch (err) {
      throw new HttpRefusal(400, 3, `not an OTLP ExportTraceServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (type === 'application/json') {
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpRefusal(400, 3, 'body is not valid JSON');
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new HttpRefusal(400, 3, 'body: want a JSON object (ExportTraceServiceRequest)');
    try {
      return m.fromObject(json as Record<string, unknown>);
    } catch (err) {
      throw new HttpRefusal(400, 3, `not an OTLP ExportTraceServiceRequest: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new HttpRefusal(415, 3, `content-type ${type === '' ? '(none)' : type}: want application/x-protobuf or application/json`);
}

/**
 * `POST /v1/traces`, OTLP/HTTP beside the OTLP/gRPC trace intake (Aperture's Lua plugin and
 * SDKs configured for HTTP export here): the same span consumer, so the same trust checks
 * (control point against the flux meter's selectors, the duration cap). Answers an
 * ExportTraceServiceResponse in the request's encoding, with `partial_success` when spans
 * were rejected; a body that is no export request is 400, one over the bound 413, another
 * content type 415, each with a `{code, message, details}` body.
 */
export function otlpTracesHttpHandler(consumer: SpanConsumer, limit = OTLP_HTTP_MAX_BODY_BYTES): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const type = mediaType(req);
    void readBody(req, limit).then((body) => {
      const { rejected, firstError } = consumeExport(decodeOtlpHttpExport(type, body), consumer);
      const answer = rejected === 0 ? {} : { partialSuccess: { rejectedSpans: rejected, errorMessage: firstError } };
      if (type === 'application/json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      } else {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end(Buffer.from(otlpMessages().ExportTraceServiceResponse.encode(answer).finish()));
      }
    }).catch((err: unknown) => {
      if (res.headersSent) return;
      const r = err instanceof HttpRefusal ? err : new HttpRefusal(400, 3, 'the export body could not be read');
      res.writeHead(r.status, { 'content-type': 'application/json' }).end(JSON.stringify({ code: r.code, message: r.message, details: [] }));
    });
  };
}

/** Mount `POST /v1/traces` on the server's HTTP app (before start). */
export function registerOtlpTracesHttpRoute(server: { app: { post(path: string, handler: (req: IncomingMessage, res: ServerResponse) => void): unknown } }, consumer: SpanConsumer): void {
  server.app.post(OTLP_TRACES_PATH, otlpTracesHttpHandler(consumer));
}
