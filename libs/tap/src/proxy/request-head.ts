import type { IncomingMessage } from 'node:http';

/** Why a request head is refused before anyone is asked about it. */
export interface HeadProblem {
  status: 400 | 431;
  message: string;
}

/**
 * Checks Node leaves to the proxy: more header fields than `maxHeaders` (the
 * server keeps every field, its head being bounded in bytes, so that going
 * past the count shows instead of being cut short), and a repeated Host (RFC
 * 9112 §3.2: 400; the workload would see one and the agent both). Node itself
 * refuses Content-Length with Transfer-Encoding and differing Content-Lengths.
 */
export function requestHeadProblem(req: IncomingMessage, maxHeaders: number): HeadProblem | undefined {
  const raw = req.rawHeaders;
  if (raw.length > maxHeaders * 2) return { status: 431, message: `the request has more than ${maxHeaders} header fields` };
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return { status: 400, message: 'the request has more than one Host header' };
  }
  return undefined;
}
