import express, { type Request, type RequestHandler, type Response } from 'express';
import { InvalidArgumentError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError, toGatewayError } from '@sluice/errors';
import { bodyParserError } from './body-errors.js';
import { decodeStatusDetails, STATUS_DETAILS_KEY } from './status-details.js';
import type { GatewayClient } from './gateway-client.js';
import type { RegisteredService } from './grpc-server.js';
import { JsonText, type GatewayInput, type GatewayRoute } from './types.js';

const DEFAULT_BODY_LIMIT = 1 << 20;
/** grpc-js's default bound on a received message, which the gRPC server keeps. */
const GRPC_MAX_REQUEST_BYTES = 4 << 20;

/** Send any error in the gateway shape `{code, message, details}` with its mapped HTTP status. */
export function sendGatewayError(res: Response, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const { status, body } = toGatewayError(err);
  // Details a gRPC handler sent in the status trailer (the fields at fault).
  const trailer = (err as { metadata?: { get?(key: string): unknown[] } } | null)?.metadata?.get?.(STATUS_DETAILS_KEY)?.[0];
  if (Buffer.isBuffer(trailer) && body.details.length === 0) body.details = decodeStatusDetails(trailer);
  res.status(status).json(body);
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

type JsonParser = ReturnType<typeof express.json>;

/** The route's JSON body, undefined when there is none; body-parser failures as 413, 415, 400 (never a 500 for bad input). */
function parseBody(req: Request, res: Response, parser: JsonParser, limit: number): Promise<unknown> {
  if (!hasBody(req)) return Promise.resolve(undefined);
  if (!req.is('application/json')) {
    return Promise.reject(new UnsupportedMediaTypeError('request body must be application/json'));
  }
  return new Promise((resolve, reject) => {
    parser(req, res, (err?: unknown) => {
      if (err) reject(bodyParserError(err, limit) ?? new InvalidArgumentError('request body is not valid JSON', 'body'));
      else resolve(req.body as unknown);
    });
  });
}

/**
 * A local route's answer: `signal` aborts when the client goes away (`closed`) or, with a
 * timeout, when it passes (a TimeoutError, answered as such). One controller and one timer per
 * call: this is the per-request path of gateways.
 */
async function callLocal(local: NonNullable<GatewayRoute['local']>, input: GatewayInput, closed: AbortController, timeoutMs: number | undefined): Promise<unknown> {
  if (timeoutMs === undefined) return local(input, closed.signal);
  const call = new AbortController();
  const onClosed = (): void => call.abort(closed.signal.reason);
  closed.signal.addEventListener('abort', onClosed, { once: true });
  const timer = setTimeout(() => call.abort(new DOMException('The operation timed out.', 'TimeoutError')), timeoutMs);
  try {
    return await local(input, call.signal);
  } finally {
    clearTimeout(timer);
    closed.signal.removeEventListener('abort', onClosed);
  }
}

/** A JSON body already serialized, written as it is (no ETag: these answers are never cached). */
function sendJsonText(res: Response, text: string): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The express handler of a gateway route: JSON in, the unary gRPC method called for real
 * through the gateway client, the response message (or what `fromResponse` makes of it)
 * as JSON out. When the response closes while the call is in flight (the client went
 * away, or the write timeout answered), the call is cancelled.
 */
export function gatewayHandler(route: GatewayRoute, services: Map<string, RegisteredService>, client: GatewayClient): RequestHandler {
  const limit = route.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const parser = express.json({ limit, strict: false, type: () => true });
  return (req, res) => {
    const closed = new AbortController();
    const onClose = (): void => closed.abort();
    res.once('close', onClose);
    void (async () => {
      const body = await parseBody(req, res, parser, limit);
      if (route.requireBody === true && body === undefined) throw new InvalidArgumentError('request body is required', 'body');
      const input = { params: req.params as Record<string, string>, query: req.query as Record<string, string | string[] | undefined>, body };
      if (route.local !== undefined) {
        const out = await callLocal(route.local, input, closed, route.timeoutMs);
        if (closed.signal.aborted || res.headersSent) return;
        if (out instanceof JsonText) sendJsonText(res, out.text);
        else res.status(200).json(out);
        return;
      }
      const method = services.get(route.service)?.definition[route.rpc];
      if (method === undefined) throw new NotFoundError(`no gRPC method ${route.service}/${route.rpc}`);
      const message = route.toRequest(input);
      let bytes: Buffer;
      try {
        bytes = method.requestSerialize(message);
      } catch (err) {
        throw new InvalidArgumentError(`request does not fit ${route.service}/${route.rpc}: ${(err as Error).message}`, 'body');
      }
      if (bytes.length > GRPC_MAX_REQUEST_BYTES) {
        throw new PayloadTooLargeError(`request exceeds the gRPC message limit of ${GRPC_MAX_REQUEST_BYTES} bytes`);
      }
      if (closed.signal.aborted) return;
      const reply = method.responseDeserialize(await client.call(method.path, bytes, route.timeoutMs, closed.signal, req.headers.authorization)) as unknown;
      const json = route.fromResponse !== undefined ? route.fromResponse(reply) : reply;
      if (!res.headersSent) res.status(200).json(json);
    })()
      .catch((err: unknown) => {
        if (!closed.signal.aborted) sendGatewayError(res, err);
      })
      .finally(() => res.removeListener('close', onClose));
  };
}
