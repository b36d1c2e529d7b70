/** Length-prefixed frames over a TCP stream: a 4-byte big-endian length, then the payload. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024;

export function encodeFrame(payload: Buffer): Buffer {
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(payload.length, 0);
  return Buffer.concat([head, payload]);
}

/** Splits a stream into frames; `push` returns the complete ones and throws FrameTooLargeError past the bound. */
export class FrameDecoder {
  private buf: Buffer = Buffer.alloc(0);

  /** `maxBytes` may be raised later (a connection's first frame is small until it is authenticated). */
  constructor(public maxBytes = MAX_FRAME_BYTES) {}

  /** Bytes of a frame begun but not complete yet. */
  get pending(): number {
    return this.buf.length;
  }

  push(chunk: Buffer): Buffer[] {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    const out: Buffer[] = [];
    while (this.buf.length >= 4) {
      const len = this.buf.readUInt32BE(0);
      if (len > this.maxBytes) throw new FrameTooLargeError(len, this.maxBytes);
      if (this.buf.length < 4 + len) break;
      out.push(this.buf.subarray(4, 4 + len));
      this.buf = this.buf.subarray(4 + len);
    }
    return out;
  }
}

export class FrameTooLargeError extends Error {
  constructor(readonly bytes: number, readonly max: number) {
    super(`frame of ${bytes} bytes is over the bound of ${max}`);
    this.name = 'FrameTooLargeError';
  }
}

/**
 * Builds frames in place, with no intermediate payload buffer: `begin`
 * reserves the length prefix, the writers append (little-endian numbers,
 * strings as a 2-byte byte length then UTF-8), `end` fills in the length.
 * Several frames can be built back to back and taken as one buffer (one
 * socket write). The scratch buffer is reused; `take` hands out a copy.
 */
export class FrameBuilder {
  private buf: Buffer;
  private view: DataView;
  private pos = 0;
  private frameStart = -1;

  constructor(initialBytes = 16 * 1024, private readonly maxBytes = MAX_FRAME_BYTES) {
    this.buf = Buffer.alloc(initialBytes);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }

  /** Bytes built so far (all frames). */
  get length(): number {
    return this.pos;
  }

  /** Bytes of the frame begun last, its length prefix left out. */
  get frameBytes(): number {
    return this.frameStart < 0 ? 0 : this.pos - this.frameStart - 4;
  }

  begin(): void {
    this.frameStart = this.pos;
    this.room(4);
    this.pos += 4;
  }

  /** Ends the frame begun last; FrameTooLargeError (and the frame dropped) past the bound. */
  end(): void {
    const len = this.frameBytes;
    if (len > this.maxBytes) {
      this.pos = this.frameStart;
      this.frameStart = -1;
      throw new FrameTooLargeError(len, this.maxBytes);
    }
    this.view.setUint32(this.frameStart, len);
    this.frameStart = -1;
  }

  /** Drops the frame begun last (nothing of it is sent). */
  abort(): void {
    if (this.frameStart >= 0) this.pos = this.frameStart;
    this.frameStart = -1;
  }

  /** Where the next byte goes (for a later `setU16`/`setU32`). */
  get offset(): number {
    return this.pos;
  }

  u8(v: number): void {
    this.room(1);
    this.buf[this.pos++] = v;
  }

  u16(v: number): void {
    this.room(2);
    this.view.setUint16(this.pos, v, true);
    this.pos += 2;
  }

  u32(v: number): void {
    this.room(4);
    this.view.setUint32(this.pos, v, true);
    this.pos += 4;
  }

  f64(v: number): void {
    this.room(8);
    this.view.setFloat64(this.pos, v, true);
    this.pos += 8;
  }

  /** A string of at most 65,535 bytes in UTF-8 (a RangeError past that). */
  str(s: string): void {
    this.room(2 + 3 * s.length);
    const n = this.buf.write(s, this.pos + 2, 'utf8');
    if (n > 0xffff) throw new RangeError(`string of ${n} bytes is over 65535`);
    this.view.setUint16(this.pos, n, true);
    this.pos += 2 + n;
  }

  setU16(at: number, v: number): void {
    this.view.setUint16(at, v, true);
  }

  setU32(at: number, v: number): void {
    this.view.setUint32(at, v, true);
  }

  /** The complete frames built so far as a buffer of their own; the builder starts empty again. */
  take(): Buffer {
    const out = Buffer.allocUnsafe(this.pos);
    this.buf.copy(out, 0, 0, this.pos);
    this.pos = 0;
    this.frameStart = -1;
    return out;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.view = new DataView(next.buffer, next.byteOffset, next.byteLength);
  }
}

/**
 * Reads what a FrameBuilder wrote, checking every bound: a read past the end
 * throws ShortFrameError (a malformed frame), never reads another frame.
 */
export class FrameReader {
  private pos = 0;
  private readonly view: DataView;

  constructor(private readonly buf: Buffer) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }

  u8(): number {
    this.need(1);
    return this.buf[this.pos++];
  }

  u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.pos, true);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  f64(): number {
    this.need(8);
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  str(): string {
    const n = this.u16();
    this.need(n);
    const s = this.buf.toString('utf8', this.pos, this.pos + n);
    this.pos += n;
    return s;
  }

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new ShortFrameError();
  }
}

/** A frame ended before what it announced (malformed). */
export class ShortFrameError extends Error {
  constructor() {
    super('frame ends early');
    this.name = 'ShortFrameError';
  }
}
