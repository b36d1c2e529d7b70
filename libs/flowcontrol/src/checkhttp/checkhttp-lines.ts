import type { Duplex } from 'node:stream';
import { GrpcCode, toGatewayError } from '@sluice/errors';
import type { UpgradeRoute } from '@sluice/server';

/** Where gateways open the check stream (HTTP/1.1 `Upgrade: sluice-checkhttp-ndjson`). */
export const CHECKHTTP_LINES_PATH = '/v1/flowcontrol/checkhttp/stream';
export const CHECKHTTP_LINES_PROTOCOL = 'sluice-checkhttp-ndjson';

/** Decides one check (Aperture's CheckHTTPRequest proto3 JSON) and answers its CheckHTTPResponse as JSON text. */
export type CheckJson = (body: unknown, signal: AbortSignal) => Promise<string>;

export interface CheckHttpLinesOptions {
  /** A longer line ends the stream (default 1 MiB). */
  maxLineBytes?: number;
  /** Checks of one stream in flight (waiting in a scheduler) before it stops reading (default 4096). */
  maxInFlight?: number;
}

/**
 * The check stream of gateways (nginx's Lua handler): after the upgrade, each line the gateway
 * writes is one check, `{"id":<n>,"check":<CheckHTTPRequest>}`, and each line the agent writes is
 * its answer, `{"id":<n>,"response":<CheckHTTPResponse>}` or `{"id":<n>,"error":{code,message,details}}`,
 * in the order decisions are made (a check that waits in a scheduler does not hold the others).
 * Answers made in one turn of the event loop go out in one write: many checks cost one HTTP
 * exchange's worth of system calls instead of one each. A line that is not JSON, or lacks an id,
 * is answered with an error line without an id; a line over `maxLineBytes` ends the stream.
 */
export function checkHttpLinesRoute(check: CheckJson, opts: CheckHttpLinesOptions = {}): UpgradeRoute {
  return {
    path: CHECKHTTP_LINES_PATH,
    protocol: CHECKHTTP_LINES_PROTOCOL,
    serve: (socket, head) => serveLines(socket, head, check, opts.maxLineBytes ?? 1 << 20, opts.maxInFlight ?? 4096),
  };
}

function errorLine(id: unknown, err: unknown): string {
  const { body } = toGatewayError(err);
  return `{${typeof id === 'number' ? `"id":${id},` : ''}"error":${JSON.stringify(body)}}\n`;
}

function serveLines(socket: Duplex, head: Buffer, check: CheckJson, maxLineBytes: number, maxInFlight: number): void {
  const closed = new AbortController();
  let pending = '';
  let out = '';
  let flushScheduled = false;
  let inFlight = 0;
  let paused = false;
  let ended = false;

  const flush = (): void => {
    flushScheduled = false;
    if (out === '' || socket.destroyed || !socket.writable) return;
    const text = out;
    out = '';
    if (!socket.write(text) && !paused) {
      paused = true;
      socket.pause();
      socket.once('drain', () => { paused = false; if (inFlight < maxInFlight) socket.resume(); });
    }
  };
  const answer = (line: string): void => {
    out += line;
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flush);
    }
  };
  const settle = (): void => {
    inFlight--;
    if (ended && inFlight === 0) setImmediate(() => { flush(); socket.end(); });
    if (paused && inFlight < maxInFlight && socket.writableNeedDrain !== true) {
      paused = false;
      socket.resume();
    }
  };

  const onLine = (line: string): void => {
    if (line === '' || line === '\r') return;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      answer(errorLine(undefined, { code: GrpcCode.INVALID_ARGUMENT, details: 'a line is not JSON' }));
      return;
    }
    const id = (msg as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      answer(errorLine(undefined, { code: GrpcCode.INVALID_ARGUMENT, details: 'a line needs a whole-number "id"' }));
      return;
    }
    inFlight++;
    if (inFlight >= maxInFlight && !paused) {
      paused = true;
      socket.pause();
    }
    check((msg as { check?: unknown }).check, closed.signal).then(
      (text) => answer(`{"id":${id},"response":${text}}\n`),
      (err: unknown) => answer(errorLine(id, err)),
    ).finally(settle);
  };

  const onData = (chunk: Buffer): void => {
    pending += chunk.toString('utf8');
    let start = 0;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
      onLine(pending.slice(start, nl));
      start = nl + 1;
    }
    pending = start === 0 ? pending : pending.slice(start);
    if (Buffer.byteLength(pending) > maxLineBytes) {
      answer(errorLine(undefined, { code: GrpcCode.RESOURCE_EXHAUSTED, details: `a line is over ${maxLineBytes} bytes` }));
      flush();
      socket.end();
      socket.removeListener('data', onData);
    }
  };

  socket.on('data', onData);
  socket.once('close', () => closed.abort());
  // The gateway closing its side ends the stream once the answers in flight are written.
  socket.once('end', () => {
    ended = true;
    if (inFlight === 0) setImmediate(() => { flush(); socket.end(); });
  });
  if (head.length > 0) onData(head);
}
