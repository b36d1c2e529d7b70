import net from 'node:net';
import { UnavailableError, DeadlineExceededError, InvalidArgumentError, ErrorCode } from '@sluice/errors';
import { FrameBuilder, FrameDecoder, encodeFrame } from './frame.js';
import { MAX_BATCH, RequestEncoder, parseResponse, type Op, type OpResult } from './ops.js';
import { splitHostPort } from '../address.js';
import { clientHello, type Keyring, type OpsChannel } from './auth/index.js';

/** A batch sent, waiting for its answer: one entry per call, in the order of its operations. */
interface Pending {
  readonly resolvers: Array<(r: OpResult) => void>;
  readonly rejecters: Array<(e: Error) => void>;
  readonly deadlines: number[];
  /** The earliest deadline of a call still waiting (Infinity when none is). */
  nextDeadlineMs: number;
  /** Calls already failed for their deadline. */
  expired: number;
}

export interface PeerClientOptions {
  /** Called with each batch's size when it is sent. */
  onBatch?: (size: number) => void;
  /** The group's keys: each connection opens with a signed hello and every frame is signed both ways. */
  keys?: Keyring;
  /** An answer whose signature did not verify (the connection is closed). */
  onAuthFailure?: () => void;
  /**
   * A connection with nothing in flight for this long is closed here, before
   * the server's idle timeout (default 60 s) could close it under a batch
   * being sent. Default 30 s.
   */
  idleMs?: number;
}

/** A batch is sent early once its frame reaches this many bytes (well under the frame bound). */
const BATCH_BYTES = 256 * 1024;
const settled = (): void => undefined;

/**
 * One member's connection to another's operations port. Calls made in one
 * event-loop turn go out as one batch (one frame, written as the calls come,
 * sent once per turn); batches are pipelined on the one connection. Each
 * call has its own deadline; a broken connection fails every call in flight
 * and the next call reconnects.
 */
export class PeerClient {
  private socket: net.Socket | undefined;
  private channel: OpsChannel | undefined;
  private decoder = new FrameDecoder();
  private readonly out = new FrameBuilder();
  private readonly encoder = new RequestEncoder(this.out);
  private batch: Pending | undefined;
  private readonly inFlight = new Map<number, Pending>();
  private nextId = 1;
  private timer: NodeJS.Timeout | undefined;
  private flushQueued = false;
  private closed = false;

  constructor(readonly addr: string, private readonly opts: PeerClientOptions = {}) {}

  call(op: Op, timeoutMs: number): Promise<OpResult> {
    if (this.closed) return Promise.reject(new UnavailableError(`peer client ${this.addr} is closed`, ErrorCode.DISTCACHE_CLOSED));
    return new Promise((resolve, reject) => {
      if (this.batch !== undefined && (this.encoder.count >= MAX_BATCH || this.encoder.bytes >= BATCH_BYTES)) this.seal();
      if (this.batch === undefined) {
        this.batch = { resolvers: [], rejecters: [], deadlines: [], nextDeadlineMs: Infinity, expired: 0 };
        this.encoder.begin();
        if (!this.flushQueued) {
          this.flushQueued = true;
          setImmediate(() => this.flush());
        }
      }
      try {
        this.encoder.add(op);
      } catch (e) {
        reject(new InvalidArgumentError(`operation for ${this.addr} cannot be sent: ${String(e)}`, 'k', ErrorCode.DISTCACHE_BAD_OPERATION));
        return;
      }
      const b = this.batch;
      const deadline = Date.now() + timeoutMs;
      b.resolvers.push(resolve);
      b.rejecters.push(reject);
      b.deadlines.push(deadline);
      if (deadline < b.nextDeadlineMs) b.nextDeadlineMs = deadline;
    });
  }

  close(): void {
    this.closed = true;
    const e = new UnavailableError(`peer client ${this.addr} is closed`, ErrorCode.DISTCACHE_CLOSED);
    if (this.batch !== undefined) {
      for (const r of this.batch.rejecters) r(e);
      this.batch = undefined;
      this.out.take();
    }
    this.fail(e);
    this.socket?.destroy();
    this.stopTimer();
  }

  /** Completes the batch being written: it is in flight from now on (the bytes leave at the flush). */
  private seal(): void {
    const b = this.batch;
    if (b === undefined) return;
    this.batch = undefined;
    const id = this.nextId;
    this.nextId = this.nextId >= 0xffffffff ? 1 : this.nextId + 1;
    const size = this.encoder.count;
    if (size === 0) {
      this.out.abort();
      return;
    }
    this.encoder.finish(id);
    this.inFlight.set(id, b);
    this.opts.onBatch?.(size);
  }

  private flush(): void {
    this.flushQueued = false;
    this.seal();
    if (this.out.length === 0 || this.closed) return;
    const s = this.ensureSocket();
    const frames = this.out.take();
    s.write(this.channel === undefined ? frames : this.channel.sealFrames(frames));
    if (this.timer === undefined && this.inFlight.size > 0) {
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
    this.decoder = new FrameDecoder();
    this.channel = undefined;
    if (this.opts.keys !== undefined) {
      const { hello, channel } = clientHello(this.opts.keys, Date.now());
      this.channel = channel;
      s.write(encodeFrame(hello));
    }
    s.on('data', (chunk: Buffer) => this.onData(s, chunk));
    s.setTimeout(this.opts.idleMs ?? 30_000, () => {
      if (this.inFlight.size === 0 && this.batch === undefined) s.destroy();
    });
    s.on('error', () => s.destroy());
    s.on('close', () => {
      if (this.socket === s) {
        this.socket = undefined;
        this.fail(new UnavailableError(`connection to ${this.addr} closed`, ErrorCode.DISTCACHE_PEER_UNAVAILABLE));
      }
    });
    return s;
  }

  private onData(s: net.Socket, chunk: Buffer): void {
    if (s !== this.socket) return;
    let frames: Buffer[];
    try {
      frames = this.decoder.push(chunk);
    } catch {
      s.destroy();
      return;
    }
    for (const frame of frames) {
      const f = this.channel === undefined ? frame : this.channel.openFrame(frame);
      if (f === undefined) {
        this.opts.onAuthFailure?.();
        s.destroy();
        return;
      }
      const parsed = parseResponse(f);
      if (parsed === undefined) {
        s.destroy();
        return;
      }
      const p = this.inFlight.get(parsed.id);
      if (p === undefined || parsed.res.length !== p.resolvers.length) continue;
      this.inFlight.delete(parsed.id);
      const res = parsed.res;
      for (let i = 0; i < res.length; i++) p.resolvers[i](res[i]);
    }
    if (this.inFlight.size === 0) this.stopTimer();
  }

  /**
   * Fails the calls past their deadline. Timers run before the event loop
   * reads sockets, so after a long turn an answer may already be waiting
   * unread: the calls found late are failed only after the next read
   * (setImmediate runs after the poll phase), and an answer read by then wins.
   */
  private expire(): void {
    const now = Date.now();
    const late: number[] = [];
    for (const [id, p] of this.inFlight) if (now >= p.nextDeadlineMs) late.push(id);
    if (late.length > 0) {
      setImmediate(() => {
        for (const id of late) {
          const p = this.inFlight.get(id);
          if (p !== undefined) this.expireCalls(id, p, now);
        }
        if (this.inFlight.size === 0) this.stopTimer();
      });
    }
    if (this.inFlight.size === 0) this.stopTimer();
  }

  /** Fails the calls of batch `id` whose deadline is at or before `now`; the batch goes once none waits. */
  private expireCalls(id: number, p: Pending, now: number): void {
    let e: DeadlineExceededError | undefined;
    let next = Infinity;
    for (let i = 0; i < p.deadlines.length; i++) {
      const d = p.deadlines[i];
      if (d === Infinity) continue;
      if (d <= now) {
        e ??= new DeadlineExceededError(`${this.addr} did not answer in time`, ErrorCode.DISTCACHE_TIMEOUT);
        p.rejecters[i](e);
        p.resolvers[i] = settled;
        p.deadlines[i] = Infinity;
        p.expired++;
      } else if (d < next) next = d;
    }
    p.nextDeadlineMs = next;
    if (p.expired === p.deadlines.length) this.inFlight.delete(id);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private fail(e: Error): void {
    for (const p of this.inFlight.values()) for (const r of p.rejecters) r(e);
    this.inFlight.clear();
  }
}
