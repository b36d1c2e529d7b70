import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Keyring, TAG_BYTES } from './keyring.js';
import { ReplayWindow } from './replay-window.js';

const HELLO = 0x48;
const HELLO_VERSION = 1;
const NONCE_BYTES = 16;
const HELLO_HEAD = 1 + 1 + 8 + NONCE_BYTES;
const HELLO_LABEL = Buffer.from('sluice-ops-hello');
const SESSION_LABEL = Buffer.from('sluice-ops-session');
const TO_SERVER = 0;
const TO_CLIENT = 1;

/**
 * One authenticated operations connection, either end. Every frame's payload
 * is followed by HMAC-SHA256 (the session key) of its direction, its number
 * in that direction and the payload: a frame changed, replayed, reordered or
 * sent the other way does not verify.
 */
export class OpsChannel {
  private sent = 0n;
  private received = 0n;

  constructor(private readonly session: Buffer, private readonly sendDir: number) {}

  /** Signs every frame of a buffer of length-prefixed frames (each gets its tag appended, its length grown). */
  sealFrames(frames: Buffer): Buffer {
    let n = 0;
    for (let at = 0; at + 4 <= frames.length; at += 4 + frames.readUInt32BE(at)) n++;
    const out = Buffer.allocUnsafe(frames.length + n * TAG_BYTES);
    let w = 0;
    for (let at = 0; at + 4 <= frames.length;) {
      const len = frames.readUInt32BE(at);
      const payload = frames.subarray(at + 4, at + 4 + len);
      out.writeUInt32BE(len + TAG_BYTES, w);
      payload.copy(out, w + 4);
      this.tag(this.sendDir, this.sent++, payload).copy(out, w + 4 + len);
      w += 4 + len + TAG_BYTES;
      at += 4 + len;
    }
    return out;
  }

  /** The payload of a received frame, or undefined when its tag does not verify. */
  openFrame(frame: Buffer): Buffer | undefined {
    if (frame.length < TAG_BYTES) return undefined;
    const payload = frame.subarray(0, frame.length - TAG_BYTES);
    const want = this.tag(1 - this.sendDir, this.received, payload);
    if (!timingSafeEqual(want, frame.subarray(frame.length - TAG_BYTES))) return undefined;
    this.received++;
    return payload;
  }

  private tag(dir: number, seq: bigint, payload: Buffer): Buffer {
    const head = Buffer.allocUnsafe(9);
    head[0] = dir;
    head.writeBigUInt64BE(seq, 1);
    return createHmac('sha256', this.session).update(head).update(payload).digest();
  }
}

/** A client's first frame (its payload) and its end of the channel. */
export function clientHello(keys: Keyring, nowMs: number): { hello: Buffer; channel: OpsChannel } {
  const head = Buffer.allocUnsafe(HELLO_HEAD);
  head[0] = HELLO;
  head[1] = HELLO_VERSION;
  head.writeDoubleLE(nowMs, 2);
  const nonce = randomBytes(NONCE_BYTES);
  nonce.copy(head, 10);
  const key = keys.signing;
  return { hello: Buffer.concat([head, keys.tag([HELLO_LABEL, head], key)]), channel: new OpsChannel(sessionKey(key, nonce), TO_SERVER) };
}

export type HelloResult = { ok: true; channel: OpsChannel } | { ok: false; reason: 'auth' | 'stale' | 'replay' };

/**
 * The server's check of a connection's first frame: signed with a key of
 * the ring, stamped within the window, its nonce never seen in it (a
 * recorded connection played again is refused).
 */
export class HelloVerifier {
  private readonly nonces: ReplayWindow;

  constructor(private readonly keys: Keyring, windowMs = 30_000) {
    this.nonces = new ReplayWindow(windowMs);
  }

  accept(hello: Buffer, nowMs: number): HelloResult {
    if (hello.length !== HELLO_HEAD + TAG_BYTES || hello[0] !== HELLO || hello[1] !== HELLO_VERSION) return { ok: false, reason: 'auth' };
    const head = hello.subarray(0, HELLO_HEAD);
    const key = this.keys.verify([HELLO_LABEL, head], hello.subarray(HELLO_HEAD));
    if (key === undefined) return { ok: false, reason: 'auth' };
    const nonce = head.subarray(10, 10 + NONCE_BYTES);
    const seen = this.nonces.check(nonce.toString('base64'), head.readDoubleLE(2), nowMs);
    if (seen !== 'ok') return { ok: false, reason: seen };
    return { ok: true, channel: new OpsChannel(sessionKey(key, nonce), TO_CLIENT) };
  }
}

function sessionKey(key: Buffer, nonce: Buffer): Buffer {
  return createHmac('sha256', key).update(SESSION_LABEL).update(nonce).digest();
}
