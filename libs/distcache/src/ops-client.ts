import net from 'node:net';
import { UnavailableError, DeadlineExceededError } from '@sluice/errors';
import { FrameDecoder, encodeFrame } from './frame.js';
import type { Op, OpResult } from './ops.js';
import { splitHostPort } from './address.js';

interface Pending {
  readonly ops: Op[];
  readonly resolvers: Array<(r: OpResult) => void>;
  readonly rejecters: Array<(e: Error) => void>;
  readonly deadlineMs: number;
}

export interface PeerClientOptions {
  /** Called with each batch's size when it is sent. */
  onBatch?: (size: number) => void;
}

/**
 * One member's connection to another's operations port. Calls made in one
 * event-loop turn go out as one batch (one frame); batches are pipelined on
 * the one connection. Each call has its own deadline; a broken connection
 * fails every call in flight and the next call reconnects.
 */
export class PeerClient {
  private socket: net.Socket | undefined;
  private connected = false;
  private decoder = new FrameDecoder();
  private batch: Pending | undefined;
  private readonly inFlight = new Map<number, Pending>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(readonly addr: string, private readonly opts: PeerClientOptions = {}) {}

  call(op: Op, timeoutMs: number): Promise<OpResult> {
    if (this.closed) return Promise.reject(new UnavailableError(`peer client ${this.addr} is closed`, 'SLUICE_ERR_DISTCACHE_CLOSED'));
    return new Promise((resolve, reject) => {
      if (this.batch === undefined) {
        this.batch = { ops: [], resolvers: [], rejecters: [], deadlineMs: Date.now() + timeoutMs };
        setImmediate(() => this.flush());
      }
      this.batch.ops.push(op);
      this.batch.resolvers.push(resolve);
      this.batch.rejecters.push(reject);
    });
  }

  close(): void {
    this.closed = true;
    this.fail(new UnavailableError(`peer client ${this.addr} is closed`, 'SLUICE_ERR_DISTCACHE_CLOSED'));
    this.socket?.destroy();
    if (this.timer !== undefined) clearInterval(this.timer);
  }

  private flush(): void {
    const b = this.batch;
    this.batch = undefined;
    if (b === undefined) return;
    const id = this.nextId++;
    this.inFlight.set(id, b);
    this.opts.onBatch?.(b.ops.length);
    const sock = this.ensureSocket();
    sock.write(encodeFrame(Buffer.from(JSON.stringify({ id, ops: b.ops }))));
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.expire(), 10);
      this.timer.unref();
    }
  }

  private ensureSocket(): net.Socket {
    if (this.socket !== undefined && !this.socket.destroyed) return this.socket;
    const { host, port } = splitHostPort(this.addr);
    const s = net.connect({ host, port });
    s.setNoDelay(true);
    this.socket = s;
    this.connected = false;
    this.decoder = new FrameDecoder();
    s.on('connect', () => {
      this.connected = true;
    });
    s.on('data', (chunk: Buffer) => this.onData(s, chunk));
    s.on('error', () => s.destroy());
    s.on('close', () => {
      if (this.socket === s) {
        this.socket = undefined;
        this.fail(new UnavailableError(`connection to ${this.addr} closed`, 'SLUICE_ERR_DISTCACHE_PEER_UNAVAILABLE'));
      }
    });
    return s;
  }

  private onData(s: net.Socket, chunk: Buffer): void {
    let frames: Buffer[];
    try {
      frames = this.decoder.push(chunk);
    } catch {
      s.destroy();
      return;
    }
    for (const f of frames) {
      let parsed: { id?: unknown; res?: unknown };
      try {
        parsed = JSON.parse(f.toString('utf8')) as { id?: unknown; res?: unknown };
      } catch {
        s.destroy();
        return;
      }
      const p = typeof parsed.id === 'number' ? this.inFlight.get(parsed.id) : undefined;
      if (p === undefined || !Array.isArray(parsed.res) || parsed.res.length !== p.ops.length) continue;
      this.inFlight.delete(parsed.id as number);
      const res = parsed.res as OpResult[];
      for (let i = 0; i < res.length; i++) p.resolvers[i](res[i]);
    }
    if (this.inFlight.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /**
   * Fails the batches past their deadline. Timers run before the event loop
   * reads sockets, so after a long turn an answer may already be waiting
   * unread: the batches found late are failed only after the next read
   * (setImmediate runs after the poll phase), and an answer read by then wins.
   */
  private expire(): void {
    const now = Date.now();
    const late: number[] = [];
    for (const [id, p] of this.inFlight) if (now >= p.deadlineMs) late.push(id);
    if (late.length > 0) {
      setImmediate(() => {
        for (const id of late) {
          const p = this.inFlight.get(id);
          if (p === undefined) continue;
          this.inFlight.delete(id);
          const e = new DeadlineExceededError(`${this.addr} did not answer in time`, 'SLUICE_ERR_DISTCACHE_TIMEOUT');
          for (const r of p.rejecters) r(e);
        }
        this.stopTimerWhenIdle();
      });
    }
    this.stopTimerWhenIdle();
    void this.connected;
  }

  private stopTimerWhenIdle(): void {
    if (this.inFlight.size === 0 && this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private fail(e: Error): void {
    for (const p of this.inFlight.values()) for (const r of p.rejecters) r(e);
    this.inFlight.clear();
  }
}
