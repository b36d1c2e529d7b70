import type { Lifecycle } from '@sluice/lifecycle';
import http2 from 'node:http2';
// The module alone: the package's index loads the gRPC and HTTP clients and the configuration schema.
import { Backoff } from '@sluice/clients/backoff';
import type { BackoffConfig } from '@sluice/clients';
import type tls from 'node:tls';

/** Waits before trying the agent again: 100 ms doubling to 2 s, ±20 %. */
export const AGENT_RETRY_BACKOFF: BackoffConfig = { base_delay: '100ms', multiplier: 2, jitter: 0.2, max_delay: '2s' };

export interface AgentConnectionOptions {
  /** Wait before dialling again after a connection that never came up; a key left out takes AGENT_RETRY_BACKOFF's. */
  backoff?: Partial<BackoffConfig>;
  /** A PING this often while connected; default 30 s. */
  keepaliveMs?: number;
  /** A PING not acknowledged within this closes the connection; default 5 s. */
  keepaliveTimeoutMs?: number;
  /** A connection not up within this is dropped and dialled again after the backoff; default 20 s (grpc-js's minimum connect timeout). */
  connectTimeoutMs?: number;
  /** TLS to the agent (ALPN h2); plaintext HTTP/2 when absent. */
  tls?: tls.ConnectionOptions;
  /** Told when the agent sends GOAWAY on a connection (its streams under way may finish; new ones go to a new connection). */
  onGoaway?: (session: http2.ClientHttp2Session) => void;
}

/** Where a connection is: not dialled, dialling, up, waiting to dial again, closed for good. */
export type ConnectionState = 'idle' | 'connecting' | 'ready' | 'backoff' | 'closed';

/**
 * One HTTP/2 connection to the agent, dialled when first needed (or by
 * `connect`) and again after it is lost; it is up once the agent's SETTINGS arrive. A connection that never came up is
 * dialled again after a backoff with jitter; meanwhile `request` gives no
 * stream, so that checks fail open at once instead of waiting. A GOAWAY
 * from the agent (a restart, a graceful shutdown) lets the streams under way
 * finish and sends new ones to a new connection. While up, the connection is
 * PINGed every `keepaliveMs` and dropped when a PING goes unanswered
 * `keepaliveTimeoutMs`, so that a peer gone silent is noticed.
 */
export class AgentConnection implements Lifecycle {
  readonly #authority: string;
  readonly #options: http2.SecureClientSessionOptions;
  readonly #backoff: Backoff;
  readonly #keepaliveMs: number;
  readonly #keepaliveTimeoutMs: number;
  readonly #connectTimeoutMs: number;
  readonly #onGoaway: (session: http2.ClientHttp2Session) => void;
  #session: http2.ClientHttp2Session | undefined;
  #ready = false;
  #dialAfter = 0;
  #closed = false;
  #lastError = '';

  constructor(address: string, opts: AgentConnectionOptions = {}) {
    this.#authority = `${opts.tls === undefined ? 'http' : 'https'}://${address}`;
    this.#options = { ...(opts.tls ?? {}), settings: { enablePush: false } };
    this.#backoff = new Backoff({ ...AGENT_RETRY_BACKOFF, ...opts.backoff });
    this.#keepaliveMs = opts.keepaliveMs ?? 30_000;
    this.#keepaliveTimeoutMs = opts.keepaliveTimeoutMs ?? 5_000;
    this.#connectTimeoutMs = opts.connectTimeoutMs ?? 20_000;
    this.#onGoaway = opts.onGoaway ?? (() => undefined);
  }

  state(): ConnectionState {
    if (this.#closed) return 'closed';
    if (this.#session !== undefined) return this.#ready ? 'ready' : 'connecting';
    return Date.now() < this.#dialAfter ? 'backoff' : 'idle';
  }

  /** Why the last connection failed or closed with an error ('' when none has). */
  lastError(): string {
    return this.#lastError;
  }

  /** Dials now when there is no connection and no backoff. */
  connect(): void {
    this.#current();
  }

  /** A new stream with `headers`, or undefined while there is no connection to open it on (backoff, closed). */
  request(headers: http2.OutgoingHttpHeaders): http2.ClientHttp2Stream | undefined {
    for (let attempt = 0; attempt < 2; attempt++) {
      const session = this.#current();
      if (session === undefined) return undefined;
      try {
        return session.request(headers, { endStream: false });
      } catch {
        // Closing under us (GOAWAY, destroyed): drop it and try a new one once.
        this.#drop(session);
      }
    }
    return undefined;
  }

  /** Closes the connection; streams under way end (UNAVAILABLE) and no new one is opened. */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    session?.destroy();
  }

  #current(): http2.ClientHttp2Session | undefined {
    if (this.#closed) return undefined;
    const held = this.#session;
    if (held !== undefined && !held.closed && !held.destroyed) return held;
    if (held !== undefined) this.#drop(held);
    if (Date.now() < this.#dialAfter) return undefined;
    return this.#dial();
  }

  #dial(): http2.ClientHttp2Session {
    const session = http2.connect(this.#authority, this.#options);
    this.#session = session;
    this.#ready = false;
    let up = false;
    let keepalive: NodeJS.Timeout | undefined;
    const connectTimer = setTimeout(() => session.destroy(), this.#connectTimeoutMs);
    connectTimer.unref();
    // Up once the agent's SETTINGS arrive: a TCP (or TLS) connection to something that does not
    // speak HTTP/2 back, such as a TLS listener dialled in plaintext, never counts as up.
    session.once('remoteSettings', () => {
      clearTimeout(connectTimer);
      up = true;
      if (this.#session === session) this.#ready = true;
      this.#backoff.reset();
      this.#lastError = '';
      keepalive = setInterval(() => this.#ping(session), this.#keepaliveMs);
      keepalive.unref();
    });
    session.on('error', (err: Error) => { this.#lastError = err.message; }); // 'close' follows
    session.on('goaway', () => {
      this.#drop(session);
      this.#onGoaway(session);
    });
    session.on('close', () => {
      clearTimeout(connectTimer);
      if (keepalive !== undefined) clearInterval(keepalive);
      this.#drop(session);
      if (!up && !this.#closed) {
        // Never came up: wait before dialling again, longer each time.
        this.#dialAfter = Date.now() + this.#backoff.next();
      }
    });
    // The connection alone does not keep the process up.
    session.unref();
    return session;
  }

  #ping(session: http2.ClientHttp2Session): void {
    if (session.closed || session.destroyed) return;
    const timeout = setTimeout(() => session.destroy(), this.#keepaliveTimeoutMs);
    timeout.unref();
    try {
      session.ping((err) => {
        clearTimeout(timeout);
        if (err !== null) session.destroy();
      });
    } catch {
      clearTimeout(timeout);
      session.destroy();
    }
  }

  /** Stops using `session` for new streams; the ones under way finish on it. */
  #drop(session: http2.ClientHttp2Session): void {
    if (this.#session !== session) return;
    this.#session = undefined;
    this.#ready = false;
    if (!session.closed && !session.destroyed) session.close();
  }
}
