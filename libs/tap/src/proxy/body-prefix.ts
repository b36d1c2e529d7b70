import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import type { BodySample } from '../check/request-attributes.js';
import { requestSize } from '../check/request-attributes.js';
import { utf8Prefix } from '../utf8.js';

/** What was read of the body before asking the agent; it is sent upstream first. */
export interface BodyPrefix {
  chunks: Buffer[];
  /** The request body ended within the prefix ('end' was seen). */
  ended: boolean;
  sample: BodySample;
}

/** Nothing read yet: the whole body still streams from `req`. */
export function unreadBody(req: IncomingMessage): BodyPrefix {
  return { chunks: [], ended: false, sample: { text: '', truncated: hasBody(req) } };
}

/** Whether the request announces a body (Content-Length > 0 or a Transfer-Encoding). */
export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return requestSize(req) > 0;
}

const SAMPLED_TYPE = /^\s*(?:application\/(?:json|[\w.+-]+\+json|x-www-form-urlencoded)|text\/[\w.+-]+)\s*(?:;|$)/i;

/** Whether a body of this content type is sampled for the check: JSON, a URL-encoded form or text. */
export function isSampledType(type: string | undefined): boolean {
  return type !== undefined && SAMPLED_TYPE.test(type);
}

/** Whether the body is worth waiting for: JSON, a URL-encoded form or text, when there is one. */
export function wantsBodySample(req: IncomingMessage, bound: number): boolean {
  if (bound <= 0 || !hasBody(req)) return false;
  return isSampledType(req.headers['content-type']);
}

/**
 * Reads the body until `bound` bytes, its end, or `timeoutMs` (a slow client
 * does not hold the check up), then pauses the request. Whole chunks are kept
 * (at most one chunk beyond the bound) so that nothing is lost on the way up.
 */
export function readBodyPrefix(req: Readable & { readonly headers?: IncomingMessage['headers'] }, bound: number, timeoutMs: number): Promise<BodyPrefix> {
  // An HTTP/2 stream has no headers of its own here: its size is known only at its end.
  const size = req.headers === undefined ? -1 : requestSize({ headers: req.headers });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const finish = (ended: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      req.pause();
      const whole = ended || (size >= 0 && total >= size);
      const buf = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
      resolve({ chunks, ended, sample: { text: utf8Prefix(buf, bound), truncated: !whole || total > bound } });
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= bound) finish(false);
    };
    const onEnd = (): void => finish(true);
    const onClose = (): void => finish(false);
    const timer = setTimeout(() => finish(false), timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  });
}
