import http2 from 'node:http2';
import { GrpcCode } from '@sluice/errors';
import { FrameError, FrameReader } from './grpc-frames.js';

export { GrpcCode };

/** How a call ended. */
export interface CallStatus {
  code: number;
  details: string;
}

export interface CallHandlers {
  /** One message's bytes (valid only during the call). */
  message(body: Buffer): void;
  /** The call's end, once. */
  status(status: CallStatus): void;
}

/** The gRPC status of an HTTP answer that is not gRPC (as gRPC's HTTP/2 protocol maps them). */
function codeOfHttpStatus(status: number): number {
  if (status === 400) return GrpcCode.INTERNAL;
  if (status === 401) return GrpcCode.UNAUTHENTICATED;
  if (status === 403) return GrpcCode.PERMISSION_DENIED;
  if (status === 404) return GrpcCode.UNIMPLEMENTED;
  if (status === 429 || status === 502 || status === 503 || status === 504) return GrpcCode.UNAVAILABLE;
  return GrpcCode.UNKNOWN;
}

/** The status of a stream reset by the peer without trailers (as grpc-js maps RST_STREAM codes). */
function codeOfReset(rstCode: number): number {
  const c = http2.constants;
  if (rstCode === c.NGHTTP2_REFUSED_STREAM) return GrpcCode.UNAVAILABLE;
  if (rstCode === c.NGHTTP2_CANCEL) return GrpcCode.CANCELLED;
  if (rstCode === c.NGHTTP2_ENHANCE_YOUR_CALM) return GrpcCode.RESOURCE_EXHAUSTED;
  if (rstCode === c.NGHTTP2_INADEQUATE_SECURITY) return GrpcCode.PERMISSION_DENIED;
  return GrpcCode.INTERNAL;
}

function decodeMessage(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The status in a header block, when it has one. */
function statusOf(headers: http2.IncomingHttpHeaders): CallStatus | undefined {
  const raw = headers['grpc-status'];
  if (typeof raw !== 'string') return undefined;
  const code = /^\d+$/.test(raw) ? Number(raw) : GrpcCode.UNKNOWN;
  const message = headers['grpc-message'];
  return { code, details: typeof message === 'string' ? decodeMessage(message) : '' };
}

/**
 * One gRPC call on an HTTP/2 stream: messages out (already framed), messages
 * in as they complete, and its status once, from the trailers (or a
 * trailers-only answer), from a non-gRPC HTTP answer, from a reset, or
 * UNAVAILABLE when the connection went away under it.
 */
export class GrpcCall {
  readonly #stream: http2.ClientHttp2Stream;
  readonly #handlers: CallHandlers;
  readonly #reader = new FrameReader();
  #status: CallStatus | undefined;
  #cancelled = false;

  constructor(stream: http2.ClientHttp2Stream, handlers: CallHandlers) {
    this.#stream = stream;
    this.#handlers = handlers;
    stream.on('response', (headers) => this.#onHeaders(headers));
    stream.on('data', (chunk: Buffer) => this.#onData(chunk));
    stream.on('trailers', (trailers) => this.#end(statusOf(trailers) ?? { code: GrpcCode.UNKNOWN, details: 'trailers without grpc-status' }));
    stream.on('error', () => undefined); // 'close' gives the status
    stream.on('close', () => this.#onClose());
  }

  /** Whether the call has ended (its status given). */
  get ended(): boolean {
    return this.#status !== undefined;
  }

  /** The connection the call is on. */
  get session(): http2.Http2Session | undefined {
    return this.#stream.session;
  }

  /** Bytes written and not yet taken by HTTP/2 flow control. */
  get buffered(): number {
    return this.#stream.writableLength;
  }

  /** Sends one framed message. */
  write(frame: Buffer): void {
    if (this.#status === undefined && this.#stream.writable) this.#stream.write(frame);
  }

  /** Half-closes: no more messages. */
  end(): void {
    if (this.#status === undefined && this.#stream.writable) this.#stream.end();
  }

  /** Resets the stream; the status is CANCELLED (unless it had one). */
  cancel(details = 'cancelled by the tap'): void {
    this.#cancelled = true;
    this.#end({ code: GrpcCode.CANCELLED, details });
    if (!this.#stream.destroyed) this.#stream.close(http2.constants.NGHTTP2_CANCEL);
  }

  #onHeaders(headers: http2.IncomingHttpHeaders & http2.IncomingHttpStatusHeader): void {
    const status = headers[':status'] ?? 0;
    if (status !== 200) {
      this.#fail({ code: codeOfHttpStatus(status), details: `the agent answered HTTP ${status}` });
      return;
    }
    const type = headers['content-type'];
    if (typeof type !== 'string' || !type.startsWith('application/grpc')) {
      this.#fail({ code: GrpcCode.UNKNOWN, details: `the agent answered content-type ${String(type)}` });
      return;
    }
    const trailersOnly = statusOf(headers);
    if (trailersOnly !== undefined) this.#end(trailersOnly);
  }

  #onData(chunk: Buffer): void {
    if (this.#status !== undefined) return;
    try {
      this.#reader.push(chunk, (body) => {
        if (this.#status === undefined) this.#handlers.message(body);
      });
    } catch (err) {
      const code = err instanceof FrameError && err.code === 'too_large' ? GrpcCode.RESOURCE_EXHAUSTED : GrpcCode.INTERNAL;
      this.#fail({ code, details: err instanceof Error ? err.message : String(err) });
    }
  }

  #onClose(): void {
    if (this.#status !== undefined) return;
    if (this.#cancelled) return this.#end({ code: GrpcCode.CANCELLED, details: 'cancelled by the tap' });
    const session = this.#stream.session;
    if (session === undefined || session.destroyed || session.closed || this.#stream.rstCode === undefined) {
      return this.#end({ code: GrpcCode.UNAVAILABLE, details: 'the connection to the agent was lost' });
    }
    const rst = this.#stream.rstCode;
    if (rst === http2.constants.NGHTTP2_NO_ERROR) return this.#end({ code: GrpcCode.UNAVAILABLE, details: 'the stream ended without a status' });
    this.#end({ code: codeOfReset(rst), details: `the agent reset the stream (HTTP/2 code ${rst})` });
  }

  /** Ends the call with `status` and resets the stream. */
  #fail(status: CallStatus): void {
    this.#end(status);
    if (!this.#stream.destroyed) this.#stream.close(http2.constants.NGHTTP2_CANCEL);
  }

  #end(status: CallStatus): void {
    if (this.#status !== undefined) return;
    this.#status = status;
    this.#handlers.status(status);
  }
}
