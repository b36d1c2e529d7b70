/*
 * gRPC's length-prefixed messages on an HTTP/2 stream
 * (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md): each
 * message is a 1-byte compressed flag, a 4-byte big-endian length and the
 * protobuf bytes. DATA frames do not follow message bounds: a message may be
 * split across frames, and one frame may carry several messages.
 */

/** Bytes before each message. */
export const FRAME_PREFIX = 5;

/** The largest message the tap takes from the agent (grpc-js's default receive limit). */
export const MAX_RECEIVE_BYTES = 4 * 1024 * 1024;

/** Why a stream's bytes cannot be read as gRPC messages. */
export class FrameError extends Error {
  readonly code: 'compressed' | 'too_large';
  constructor(code: 'compressed' | 'too_large', message: string) {
    super(message);
    this.name = 'FrameError';
    this.code = code;
  }
}

/** `body` as one uncompressed gRPC message. */
export function frameOf(body: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(FRAME_PREFIX + body.length);
  frame[0] = 0;
  frame.writeUInt32BE(body.length, 1);
  frame.set(body, FRAME_PREFIX);
  return frame;
}

/**
 * Reads messages out of a stream's DATA chunks as they come. A chunk that
 * completes no message is kept (the common case, a whole message in one
 * chunk, is not copied). Compressed messages (the tap never offers an
 * encoding) and messages over `maxBytes` are errors.
 */
export class FrameReader {
  readonly #maxBytes: number;
  #held: Buffer[] = [];
  #heldBytes = 0;

  constructor(maxBytes = MAX_RECEIVE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held for a message not complete yet. */
  get held(): number {
    return this.#heldBytes;
  }

  /** Takes `chunk`; calls `onMessage` for every message it completes. Throws FrameError. */
  push(chunk: Buffer, onMessage: (body: Buffer) => void): void {
    let data = chunk;
    if (this.#heldBytes > 0) {
      this.#held.push(chunk);
      this.#heldBytes += chunk.length;
      // a message split over many DATA frames is joined once, when it is whole
      if (this.#heldBytes < this.#needed()) return;
      data = Buffer.concat(this.#held, this.#heldBytes);
      this.#held = [];
      this.#heldBytes = 0;
    }
    let at = 0;
    while (data.length - at >= FRAME_PREFIX) {
      const length = this.#checkedLength(data, at);
      if (data.length - at - FRAME_PREFIX < length) break;
      onMessage(data.subarray(at + FRAME_PREFIX, at + FRAME_PREFIX + length));
      at += FRAME_PREFIX + length;
    }
    if (at < data.length) {
      const rest = data.subarray(at);
      this.#held.push(rest);
      this.#heldBytes = rest.length;
    }
  }

  /** The bytes the held message needs in all (its prefix read once the held bytes include it). */
  #needed(): number {
    const first = this.#held[0] as Buffer;
    if (first.length >= FRAME_PREFIX) return FRAME_PREFIX + this.#checkedLength(first, 0);
    if (this.#heldBytes < FRAME_PREFIX) return FRAME_PREFIX;
    const head = Buffer.concat(this.#held, this.#heldBytes).subarray(0, FRAME_PREFIX);
    return FRAME_PREFIX + this.#checkedLength(head, 0);
  }

  /** The length in the prefix at `at`, refused when compressed or over the bound. */
  #checkedLength(data: Buffer, at: number): number {
    const flag = data[at] as number;
    const length = data.readUInt32BE(at + 1);
    if (flag !== 0) throw new FrameError('compressed', `a compressed message (flag ${flag}) where none was offered`);
    if (length > this.#maxBytes) throw new FrameError('too_large', `a message of ${length} bytes, over the limit of ${this.#maxBytes}`);
    return length;
  }
}
