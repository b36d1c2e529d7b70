import type { Duplex } from 'node:stream';

/** The HTTP/2 client connection preface (RFC 9113 §3.4). */
export const HTTP2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

export type Protocol = 'h2' | 'http1';

/** What the first bytes of a connection say: a protocol, or 'refuse' for a malformed HTTP/2 preface. */
export function classify(head: Buffer): Protocol | 'refuse' | 'more' {
  const n = Math.min(head.length, HTTP2_PREFACE.length);
  for (let i = 0; i < n; i++) {
    if (head[i] !== HTTP2_PREFACE[i]) return i < 3 ? 'http1' : 'refuse';
  }
  return n === HTTP2_PREFACE.length ? 'h2' : 'more';
}

/**
 * Read the first bytes of a connection until the protocol is known, then put them
 * back (unshift) so the chosen server sees the stream from its start.
 * Resolves 'closed' if the peer goes away or sends nothing within `timeoutMs` (0: no bound),
 * 'refuse' on a malformed HTTP/2 preface.
 */
export function sniffProtocol(socket: Duplex, timeoutMs: number): Promise<Protocol | 'refuse' | 'closed'> {
  return new Promise((resolve) => {
    let head: Buffer = Buffer.alloc(0);
    let settled = false;
    const timer = timeoutMs > 0 ? setTimeout(() => finish('closed'), timeoutMs) : undefined;
    const finish = (result: Protocol | 'refuse' | 'closed'): void => {
      if (settled) return;
      settled = true;
      if (timer !== undefined) clearTimeout(timer);
      socket.off('readable', onReadable);
      socket.off('end', onGone);
      socket.off('close', onGone);
      socket.off('error', onGone);
      if (head.length > 0 && (result === 'h2' || result === 'http1')) socket.unshift(head);
      resolve(result);
    };
    const onGone = (): void => finish('closed');
    const onReadable = (): void => {
      let chunk: Buffer | null;
      while (!settled && (chunk = socket.read() as Buffer | null) !== null) {
        head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
        const verdict = classify(head);
        if (verdict !== 'more') finish(verdict);
      }
    };
    socket.on('readable', onReadable);
    socket.once('end', onGone);
    socket.once('close', onGone);
    socket.once('error', onGone);
    onReadable();
  });
}
