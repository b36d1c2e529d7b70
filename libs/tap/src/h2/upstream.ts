import http2 from 'node:http2';
import { formatHostPort } from '../cli/address.js';
import type { UpstreamTarget } from '../proxy/forward-context.js';

/** The workload's HTTP/2 (h2c) connection, opened on first use and again after it is lost. */
export interface H2Upstream {
  /** Opens a stream to the workload (the connection is dialled when there is none). */
  request(headers: http2.OutgoingHttpHeaders, options: http2.ClientSessionRequestOptions): http2.ClientHttp2Stream;
  /** Closes the connection: its streams finish, for at most `graceMs`, then it is destroyed. */
  close(graceMs: number): Promise<void>;
}

/**
 * One h2c connection to `target`, shared by every stream (HTTP/2 multiplexes
 * them). A connection that failed, closed or was told to go away (GOAWAY) is
 * dropped: the next request dials a new one, while streams already open on
 * the old one finish there.
 */
export function createH2Upstream(target: UpstreamTarget, maxHeaderListSize: number): H2Upstream {
  let session: http2.ClientHttp2Session | undefined;
  let closing = false;
  const all = new Set<http2.ClientHttp2Session>();
  const dial = (): http2.ClientHttp2Session => {
    const s = http2.connect(`http://${formatHostPort(target)}`, { settings: { maxHeaderListSize, enablePush: false }, maxHeaderListPairs: 20_000 });
    all.add(s);
    const drop = (): void => {
      if (session === s) session = undefined;
    };
    s.on('error', drop);
    s.on('goaway', drop);
    s.on('close', () => {
      drop();
      all.delete(s);
    });
    // An idle connection must not keep the process alive.
    s.unref();
    return s;
  };
  return {
    request(headers, options) {
      if (closing) throw new Error('the tap is shutting down');
      if (session === undefined || session.closed || session.destroyed) session = dial();
      return session.request(headers, options);
    },
    async close(graceMs) {
      closing = true;
      const sessions = [...all];
      await Promise.all(sessions.map((s) => new Promise<void>((resolve) => {
        if (s.destroyed) return resolve();
        const timer = setTimeout(() => s.destroy(), graceMs);
        s.close(() => {
          clearTimeout(timer);
          resolve();
        });
        s.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      })));
    },
  };
}
