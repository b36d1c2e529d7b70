import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestSize } from '../check/request-attributes.js';

/** Most bytes of a request body the tap reads and drops to keep a connection alive after answering early. */
export const DRAIN_BYTES = 1024 * 1024;
/** Longest the tap waits for such a body to end before it closes the connection. */
export const DRAIN_MS = 5000;

/**
 * Whether a response the tap writes before it has read (or sent on) the whole
 * request body should close the connection: when the body is known to be
 * larger than the drain bound, draining is not worth it.
 */
export function mustCloseUnread(req: IncomingMessage, bodyInHand: boolean): boolean {
  if (bodyInHand || req.readableEnded || req.complete) return false;
  const size = requestSize(req);
  return size > DRAIN_BYTES;
}

/**
 * After `res` has been written in full, reads and drops what is left of the
 * request body, so that the connection can carry its next request. A body
 * past DRAIN_BYTES or DRAIN_MS closes the connection instead. Without this
 * a request body that nobody reads leaves the keep-alive connection stalled.
 */
export function drainAfterResponse(req: IncomingMessage, res: ServerResponse): void {
  if (req.readableEnded || req.complete) return;
  const socket = req.socket;
  const start = (): void => {
    if (req.readableEnded || req.complete || socket.destroyed) return;
    let left = DRAIN_BYTES;
    const stop = (): void => {
      clearTimeout(timer);
      req.off('data', onData);
    };
    const onData = (chunk: Buffer): void => {
      left -= chunk.length;
      if (left < 0) {
        stop();
        socket.destroy();
      }
    };
    const timer = setTimeout(() => { stop(); socket.destroy(); }, DRAIN_MS);
    timer.unref();
    req.on('data', onData);
    req.once('end', stop);
    req.once('close', stop);
    req.resume();
  };
  if (res.writableFinished) start();
  else res.once('finish', start);
}
