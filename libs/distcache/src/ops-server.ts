import net from 'node:net';
import { FrameBuilder, FrameDecoder } from './frame.js';
import { encodeResponse, parseRequest, type Op, type OpResult } from './ops.js';

export type OpHandler = (op: Op) => OpResult | Promise<OpResult>;

export interface OpsServerOptions {
  handler: OpHandler;
  /** A malformed frame (the connection is closed). */
  onMalformed?: () => void;
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

  constructor(private readonly opts: OpsServerOptions) {
    this.server = net.createServer((s) => this.accept(s));
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

  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.setNoDelay(true);
    const dec = new FrameDecoder();
    const out = new FrameBuilder(4096);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => s.destroy());
    s.on('data', (chunk: Buffer) => {
      let frames: Buffer[];
      try {
        frames = dec.push(chunk);
      } catch {
        this.opts.onMalformed?.();
        s.destroy();
        return;
      }
      for (const f of frames) {
        const req = parseRequest(f);
        if (req === undefined) {
          this.opts.onMalformed?.();
          out.take();
          s.destroy();
          return;
        }
        const results = req.ops.map((op) => this.run(op));
        if (results.every((r) => !isPromise(r))) this.answer(out, req.id, results as OpResult[]);
        else void Promise.all(results).then((res) => this.reply(s, req.id, res));
      }
      if (out.length > 0 && !s.destroyed) s.write(out.take());
    });
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
  private reply(s: net.Socket, id: number, res: OpResult[]): void {
    if (s.destroyed) return;
    const out = new FrameBuilder(256);
    this.answer(out, id, res);
    if (out.length > 0) s.write(out.take());
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
