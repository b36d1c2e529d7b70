import net from 'node:net';
import { FrameBuilder, FrameDecoder, MAX_FRAME_BYTES } from './frame.js';
import { encodeResponse, parseRequest, type Op, type OpResult } from './ops.js';
import type { HelloVerifier, OpsChannel } from './auth/index.js';

export type OpHandler = (op: Op) => OpResult | Promise<OpResult>;

/** Why the operations server closed a connection. */
export type OpsRefusal = 'malformed' | 'auth' | 'stale' | 'replay' | 'idle' | 'truncated' | 'limit';

export interface OpsServerOptions {
  handler: OpHandler;
  /** A malformed frame (the connection is closed). */
  onMalformed?: () => void;
  /** A connection closed or refused by the server (auth, idle, a truncated frame, over the bound). */
  onRefused?: (why: OpsRefusal) => void;
  /** With a verifier, a connection's first frame is a signed hello and every frame is signed; else frames are taken as they come. */
  auth?: HelloVerifier;
  /** Connections served at once; more are closed as they come. Default 1024. */
  maxConnections?: number;
  /** A connection with nothing read for this long is closed (0: never). Default 60 s. */
  idleTimeoutMs?: number;
  /** A frame begun and not complete within this long is closed (truncated). Default 5 s. */
  frameTimeoutMs?: number;
}

/** The largest first frame of a connection that must authenticate (a hello is far smaller). */
const HELLO_FRAME_BYTES = 256;

interface Conn {
  readonly s: net.Socket;
  readonly dec: FrameDecoder;
  readonly out: FrameBuilder;
  channel: OpsChannel | undefined;
  partialTimer: NodeJS.Timeout | undefined;
}

/**
 * Serves counter operations: each frame is a batch, answered as one frame
 * once every operation of it is done; batches are pipelined (answers carry
 * the batch id and may come back in any order). The answers to the batches
 * of one read that are done at once leave in one write.
 */
export class OpsServer {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private readonly idleMs: number;
  private readonly frameMs: number;

  constructor(private readonly opts: OpsServerOptions) {
    this.idleMs = opts.idleTimeoutMs ?? 60_000;
    this.frameMs = opts.frameTimeoutMs ?? 5000;
    this.server = net.createServer((s) => this.accept(s));
    this.server.maxConnections = opts.maxConnections ?? 1024;
    this.server.on('drop', () => this.opts.onRefused?.('limit'));
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as net.AddressInfo).port);
      });
    });
  }

  /** Connections open now. */
  get connections(): number {
    return this.sockets.size;
  }

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.setNoDelay(true);
    const dec = new FrameDecoder(this.opts.auth === undefined ? MAX_FRAME_BYTES : HELLO_FRAME_BYTES);
    const c: Conn = { s, dec, out: new FrameBuilder(4096), channel: undefined, partialTimer: undefined };
    if (this.idleMs > 0) s.setTimeout(this.idleMs, () => this.refuse(c, 'idle'));
    s.on('close', () => {
      this.sockets.delete(s);
      if (c.partialTimer !== undefined) clearTimeout(c.partialTimer);
    });
    s.on('error', () => s.destroy());
    s.on('data', (chunk: Buffer) => this.onData(c, chunk));
  }

  private onData(c: Conn, chunk: Buffer): void {
    let frames: Buffer[];
    try {
      frames = c.dec.push(chunk);
    } catch {
      this.malformed(c);
      return;
    }
    for (const f of frames) {
      const payload = this.unwrap(c, f);
      if (payload === undefined) return;
      if (payload === null) continue;
      const req = parseRequest(payload);
      if (req === undefined) {
        this.malformed(c);
        return;
      }
      const results = req.ops.map((op) => this.run(op));
      if (results.every((r) => !isPromise(r))) this.answer(c.out, req.id, results as OpResult[]);
      else void Promise.all(results).then((res) => this.reply(c, req.id, res));
    }
    if (c.out.length > 0) this.send(c, c.out.take());
    this.watchPartial(c);
  }

  /** A frame's payload; null for the hello (nothing to answer); undefined when the connection was closed. */
  private unwrap(c: Conn, f: Buffer): Buffer | null | undefined {
    const auth = this.opts.auth;
    if (auth === undefined) return f;
    if (c.channel === undefined) {
      const h = auth.accept(f, Date.now());
      if (!h.ok) {
        this.refuse(c, h.reason);
        return undefined;
      }
      c.channel = h.channel;
      c.dec.maxBytes = MAX_FRAME_BYTES;
      return null;
    }
    const payload = c.channel.openFrame(f);
    if (payload === undefined) this.refuse(c, 'auth');
    return payload;
  }

  /** A frame begun and not finished in time: the connection is closed (a client that stops mid-frame holds nothing). */
  private watchPartial(c: Conn): void {
    if (c.dec.pending === 0) {
      if (c.partialTimer !== undefined) clearTimeout(c.partialTimer);
      c.partialTimer = undefined;
    } else if (c.partialTimer === undefined && !c.s.destroyed) {
      c.partialTimer = setTimeout(() => this.refuse(c, 'truncated'), this.frameMs);
      c.partialTimer.unref();
    }
  }

  private malformed(c: Conn): void {
    this.opts.onMalformed?.();
    c.out.take();
    c.s.destroy();
  }

  private refuse(c: Conn, why: OpsRefusal): void {
    if (c.s.destroyed) return;
    this.opts.onRefused?.(why);
    c.out.take();
    c.s.destroy();
  }

  private send(c: Conn, frames: Buffer): void {
    if (c.s.destroyed) return;
    c.s.write(c.channel === undefined ? frames : c.channel.sealFrames(frames));
  }

  private run(op: Op): OpResult | Promise<OpResult> {
    try {
      const r = this.opts.handler(op);
      return isPromise(r) ? r.catch((e: unknown) => ({ err: String(e) })) : r;
    } catch (e) {
      return { err: String(e) };
    }
  }

  /** A batch answered later (an operation had to wait): a write of its own. */
  private reply(c: Conn, id: number, res: OpResult[]): void {
    if (c.s.destroyed) return;
    const out = new FrameBuilder(256);
    this.answer(out, id, res);
    if (out.length > 0) this.send(c, out.take());
  }

  /**
   * Appends the answer to batch `id`. One too large for a frame (answers of
   * 4,096 error messages) is answered by errors without their messages, so
   * the caller still hears of every operation.
   */
  private answer(out: FrameBuilder, id: number, res: OpResult[]): void {
    try {
      encodeResponse(out, id, res);
    } catch {
      out.abort();
      encodeResponse(out, id, res.map(() => ({ err: 'answer too large' })));
    }
  }
}

function isPromise<T>(x: T | Promise<T>): x is Promise<T> {
  return typeof (x as Promise<T>)?.then === 'function';
}
