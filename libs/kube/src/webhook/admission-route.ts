// The HTTP side of the controller's admission webhooks, on its own server (and its TLS): the
// body read up to MAX_ADMISSION_BYTES (past it the answer is 413 at once and the connection
// closes after it), then the webhook's answer as JSON. Apps only wire a path to a webhook.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_ADMISSION_BYTES } from './admission-review.js';

/** What a webhook answers: an HTTP status and a JSON body. */
export interface AdmissionHttpAnswer {
  status: number;
  body: unknown;
}

/** A webhook as the route sees it: a body, or the byte count of one over the bound. */
export interface AdmissionHandler {
  review(body: Buffer): AdmissionHttpAnswer;
  tooLarge(bytes: number): AdmissionHttpAnswer;
}

/** Reads a request body up to `limit` bytes; past it resolves with the bytes seen and stops reading. */
export function readAdmissionBody(req: IncomingMessage, limit = MAX_ADMISSION_BYTES): Promise<Buffer | number> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        resolve(size);
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request handler (node http or express) answering AdmissionReviews with `handler`. */
export function admissionRoute(handler: AdmissionHandler): (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void {
  return (req, res, next) => {
    readAdmissionBody(req).then((body) => {
      const answer = typeof body === 'number' ? handler.tooLarge(body) : handler.review(body);
      const text = JSON.stringify(answer.body);
      // A body left unread closes the connection after the answer.
      const headers: Record<string, string | number> = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) };
      if (typeof body === 'number') headers.connection = 'close';
      res.writeHead(answer.status, headers);
      res.end(text);
    }, next);
  };
}
