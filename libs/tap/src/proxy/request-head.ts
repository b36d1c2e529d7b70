import type { IncomingMessage } from 'node:http';

/** Why a request head is refused before anyone is asked about it. */
export interface HeadProblem {
  status: 400 | 431 | 501;
  message: string;
}

/**
 * Why a Transfer-Encoding is refused, or undefined for none or exactly
 * `chunked`: the tap forwards no other coding (it would have to change it,
 * re-framing the body as plain chunked), so a request with one is answered
 * 501 (RFC 9112 §6.1) and a response with one is a bad response (502).
 */
export function transferCodingProblem(te: string | undefined): string | undefined {
  if (te === undefined || te === 'chunked') return undefined;
  const codings = te.split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '');
  if (codings.length === 1 && codings[0] === 'chunked') return undefined;
  return `transfer coding "${te}" is not supported: only chunked is`;
}

/**
 * Checks Node leaves to the proxy: more header fields than `maxHeaders` (the
 * server keeps every field, its head being bounded in bytes, so that going
 * past the count shows instead of being cut short), a repeated Host (RFC
 * 9112 §3.2: 400; the workload would see one and the agent both), and a
 * transfer coding other than chunked (501). Node itself refuses
 * Content-Length with Transfer-Encoding and differing Content-Lengths.
 */
export function requestHeadProblem(req: IncomingMessage, maxHeaders: number): HeadProblem | undefined {
  const raw = req.rawHeaders;
  if (raw.length > maxHeaders * 2) return { status: 431, message: `the request has more than ${maxHeaders} header fields` };
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return { status: 400, message: 'the request has more than one Host header' };
  }
  const coding = transferCodingProblem(req.headers['transfer-encoding']);
  if (coding !== undefined) return { status: 501, message: coding };
  return undefined;
}
