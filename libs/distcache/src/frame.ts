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

  constructor(private readonly maxBytes = MAX_FRAME_BYTES) {}

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
