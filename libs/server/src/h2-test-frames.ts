import net from 'node:net';
import hpack from 'hpack.js';
import { FLAG_ACK, FLAG_END_HEADERS, FLAG_END_STREAM, FrameType } from './h2-prelude.js';
import { HTTP2_PREFACE } from './protocol-router.js';

/** Test helpers: raw HTTP/2 frames, and a client on a raw socket that shows what the server does. */

export function frame(type: number, flags: number, stream: number, payload: Buffer = Buffer.alloc(0)): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** A client SETTINGS frame (ENABLE_PUSH 0). */
export const CLIENT_SETTINGS = frame(FrameType.SETTINGS, 0, 0, Buffer.from([0, 2, 0, 0, 0, 0]));
export const SETTINGS_ACK = frame(FrameType.SETTINGS, FLAG_ACK, 0);
export const CLIENT_PREFACE = Buffer.concat([HTTP2_PREFACE, CLIENT_SETTINGS]);

/** A request header block, HPACK-encoded as a fresh connection's first block. */
export function headerBlock(fields: Record<string, string>): Buffer {
  const encoder = hpack.compressor.create({ table: { size: 4096 } });
  encoder.write(Object.entries(fields).map(([name, value]) => ({ name, value, huffman: true })));
  return encoder.read() ?? Buffer.alloc(0);
}

export const ECHO_PATH = '/sluice.test.echo.v1.EchoService/Echo';

export function grpcFields(path = ECHO_PATH): Record<string, string> {
  return { ':method': 'POST', ':scheme': 'http', ':path': path, ':authority': 'localhost', 'content-type': 'application/grpc', te: 'trailers' };
}

export function getFields(path: string): Record<string, string> {
  return { ':method': 'GET', ':scheme': 'http', ':path': path, ':authority': 'localhost' };
}

/** An EchoRequest { message } as one length-prefixed gRPC message. */
export function echoMessage(message: string): Buffer {
  const text = Buffer.from(message);
  const proto = Buffer.concat([Buffer.from([0x0a, text.length]), text]);
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(proto.length, 1);
  return Buffer.concat([prefix, proto]);
}

/** HEADERS (END_HEADERS) and a final DATA frame of a gRPC Echo call on `stream`. */
export function echoCall(stream: number, message: string): Buffer {
  return Buffer.concat([frame(FrameType.HEADERS, FLAG_END_HEADERS, stream, headerBlock(grpcFields())), frame(FrameType.DATA, FLAG_END_STREAM, stream, echoMessage(message))]);
}

export interface RawFrame { type: number; flags: number; stream: number; payload: Buffer }

/**
 * An HTTP/2 client on a raw socket: it records every frame the server sends and acknowledges
 * the server's SETTINGS (as every client must). `waitFor` resolves when a frame matches.
 */
export class RawH2Client {
  readonly frames: RawFrame[] = [];
  closed = false;
  private buffered = Buffer.alloc(0);
  private readonly waiters: Array<{ match: (f: RawFrame) => boolean; resolve: (f: RawFrame) => void }> = [];
  private readonly socket: net.Socket;
  private readonly closeWaiters: Array<() => void> = [];

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('error', () => {});
    socket.on('data', (d: Buffer) => this.onData(d));
    socket.on('close', () => {
      this.closed = true;
      for (const w of this.closeWaiters.splice(0)) w();
    });
  }

  static connect(port: number): Promise<RawH2Client> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawH2Client(socket)));
      socket.once('error', reject);
    });
  }

  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** The frames the server sent of a type. */
  ofType(type: number): RawFrame[] {
    return this.frames.filter((f) => f.type === type);
  }

  /** The first frame (already received or coming) that matches, or undefined after `limitMs` or on close. */
  waitFor(match: (f: RawFrame) => boolean, limitMs = 5000): Promise<RawFrame | undefined> {
    const seen = this.frames.find(match);
    if (seen !== undefined || this.closed) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(undefined), limitMs);
      const done = (f: RawFrame | undefined): void => {
        clearTimeout(timer);
        resolve(f);
      };
      this.waiters.push({ match, resolve: done });
      this.closeWaiters.push(() => done(undefined));
    });
  }

  /** Resolves true once the server closes the connection, false after `limitMs`. */
  waitClosed(limitMs: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), limitMs);
      this.closeWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private onData(d: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, d]);
    while (this.buffered.length >= 9) {
      const length = this.buffered.readUIntBE(0, 3);
      if (this.buffered.length < 9 + length) break;
      const f: RawFrame = { type: this.buffered[3], flags: this.buffered[4], stream: this.buffered.readUInt32BE(5) & 0x7fff_ffff, payload: this.buffered.subarray(9, 9 + length) };
      this.buffered = this.buffered.subarray(9 + length);
      this.frames.push(f);
      if (f.type === FrameType.SETTINGS && (f.flags & FLAG_ACK) === 0) this.socket.write(SETTINGS_ACK);
      for (let i = this.waiters.length - 1; i >= 0; i--) {
        const w = this.waiters[i];
        if (w.match(f)) {
          this.waiters.splice(i, 1);
          w.resolve(f);
        }
      }
    }
  }
}

/** A GOAWAY frame's error code. */
export function goawayCode(f: RawFrame): number {
  return f.payload.readUInt32BE(4);
}
