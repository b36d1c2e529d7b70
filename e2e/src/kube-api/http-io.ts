// Reading and answering HTTP for the test API server: bodies bounded in size, JSON in and out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest } from './api-error.js';

const MAX_BODY = 3 * 1024 * 1024;

export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw badRequest('the body of the request is empty');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw badRequest(`the body of the request could not be decoded: ${(err as Error).message}`);
  }
}

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        // Answer 413 at once and throw the rest of the body away; the connection closes after the answer.
        req.removeAllListeners('data');
        req.resume();
        reject(new ApiError(413, 'BadRequest', `the request body is larger than ${MAX_BODY} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function send(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private', ...(code === 413 ? { Connection: 'close' } : {}) });
  res.end(text);
}

export function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
