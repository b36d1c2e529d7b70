import type { Duplex } from 'node:stream';
import { EMPTY_SETTINGS, H2Prelude } from './h2-prelude.js';

export interface FirstStreamOptions {
  /** Bound on the bytes held before the decision. */
  maxBytes: number;
  /** Bound on the time until the decision; a connection still undecided then is dropped, unless idle (it goes to gRPC). */
  timeoutMs: number;
  /**
   * How long after the client's SETTINGS a request may take before our side sends the server
   * preface itself (clients such as grpc-js and grpc-go wait for it before their first request).
   */
  settingsDelayMs: number;
  /** How long a client that has acknowledged our SETTINGS may stay without a request before it goes to gRPC. */
  idleMs: number;
}

export const FIRST_STREAM_DEFAULTS: Omit<FirstStreamOptions, 'timeoutMs'> = { maxBytes: 64 * 1024, settingsDelayMs: 10, idleMs: 1000 };

/**
 * Where an HTTP/2 connection goes: 'grpc' (its first request is a gRPC call, or it made no request
 * while idle after the SETTINGS exchange, as a gRPC channel connecting ahead of its calls does),
 * 'http' (any other first request), or 'drop' with the reason.
 */
export type FirstStreamRoute = { route: 'grpc' | 'http'; idle: boolean } | { route: 'drop'; reason: string };

/**
 * Read a new HTTP/2 connection (its preface first) up to its first request and decide where it
 * goes. Every byte read is put back (unshift) before resolving a route other than 'drop', so the
 * chosen server reads the connection from its start and serves it on the socket itself; only the
 * client's acknowledgement of the SETTINGS our side sent (if it did) is left out.
 */
export function peekFirstStream(socket: Duplex, options: FirstStreamOptions): Promise<FirstStreamRoute> {
  return new Promise((resolve) => {
    const prelude = new H2Prelude(options.maxBytes);
    let settled = false;
    let settingsTimer: NodeJS.Timeout | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    // A client that acknowledged our SETTINGS is a working HTTP/2 client waiting to make its first
    // call: at the deadline it goes to gRPC like any idle one; anything else is dropped.
    const deadline = setTimeout(() => {
      finish(prelude.idle ? { route: 'grpc', idle: true } : { route: 'drop', reason: `no request within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    const finish = (route: FirstStreamRoute): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(settingsTimer);
      clearTimeout(idleTimer);
      socket.off('readable', onReadable);
      socket.off('end', onGone);
      socket.off('close', onGone);
      socket.off('error', onGone);
      if (route.route !== 'drop') socket.unshift(prelude.replay());
      resolve(route);
    };
    const onGone = (): void => finish({ route: 'drop', reason: 'the client went away before its first request' });
    const sendSettings = (): void => {
      if (settled || prelude.sentSettings) return;
      prelude.markSettingsSent();
      socket.write(EMPTY_SETTINGS);
    };
    const onReadable = (): void => {
      let chunk: Buffer | null;
      while (!settled && (chunk = socket.read() as Buffer | null) !== null) {
        const step = prelude.push(chunk);
        if (step.state === 'drop') finish({ route: 'drop', reason: step.reason });
        else if (step.state === 'decided') finish({ route: step.grpc ? 'grpc' : 'http', idle: false });
      }
      if (settled) return;
      if (prelude.clientPrefaceDone && settingsTimer === undefined) settingsTimer = setTimeout(sendSettings, options.settingsDelayMs);
      if (prelude.idle && idleTimer === undefined) idleTimer = setTimeout(() => finish({ route: 'grpc', idle: true }), options.idleMs);
    };
    socket.on('readable', onReadable);
    socket.once('end', onGone);
    socket.once('close', onGone);
    socket.once('error', onGone);
    onReadable();
  });
}
