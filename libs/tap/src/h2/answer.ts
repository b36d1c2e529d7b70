import type { OutgoingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { grpcTrailersOnly } from './grpc-status.js';

/** Whether the stream can still be answered (no head sent, not closed). */
export function answerable(stream: ServerHttp2Stream): boolean {
  return !stream.headersSent && !stream.destroyed && !stream.closed;
}

/** Sends a whole answer (a head, and a body when there is one); a stream gone in the meantime is left alone. */
export function answer(stream: ServerHttp2Stream, headers: OutgoingHttpHeaders, body?: string): void {
  if (!answerable(stream)) return;
  try {
    if (body === undefined || body.length === 0) {
      stream.respond(headers, { endStream: true });
    } else {
      stream.respond({ ...headers, 'content-length': Buffer.byteLength(body) });
      stream.end(body);
    }
  } catch {
    // The stream closed between the check and the answer.
    stream.destroy();
  }
}

/** Answers a gRPC status in the trailers-only form. */
export function answerGrpc(stream: ServerHttp2Stream, code: number, message: string, extra: OutgoingHttpHeaders = {}): void {
  answer(stream, grpcTrailersOnly(code, message, extra));
}

/**
 * Answers an error of the tap's own: a gRPC status to a gRPC call (its
 * client reads nothing else), else `status` with the gRPC-gateway JSON body.
 */
export function answerError(stream: ServerHttp2Stream, grpc: boolean, status: number, grpcCode: number, message: string, extra: OutgoingHttpHeaders = {}): void {
  if (grpc) {
    answerGrpc(stream, grpcCode, message, extra);
    return;
  }
  answer(stream, { ...extra, ':status': status, 'content-type': 'application/json' }, JSON.stringify({ code: grpcCode, message, details: [] }));
}
