import net from 'node:net';
import { FrameDecoder, encodeFrame } from './frame.js';
import { parseRequest, type Op, type OpResult, type ResponseFrame } from './ops.js';

export type OpHandler = (op: Op) => OpResult | Promise<OpResult>;

export interface OpsServerOptions {
  handler: OpHandler;
  /** A malformed frame (the connection is closed). */
  onMalformed?: () => void;
}

/**
 * Serves counter operations: each frame is a batch, answered as one frame
 * once every operation of it is done; batches are pipelined (answers carry
 * the batch id and may come back in any order).
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
          s.destroy();
          return;
        }
        const results = req.ops.map((op) => this.run(op));
        if (results.every((r) => !isPromise(r))) this.reply(s, { id: req.id, res: results as OpResult[] });
        else void Promise.all(results).then((res) => this.reply(s, { id: req.id, res }));
      }
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

  private reply(s: net.Socket, frame: ResponseFrame): void {
    if (!s.destroyed) s.write(encodeFrame(Buffer.from(JSON.stringify(frame))));
  }
}

function isPromise<T>(x: T | Promise<T>): x is Promise<T> {
  return typeof (x as Promise<T>)?.then === 'function';
}
