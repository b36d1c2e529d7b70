import { randomBytes } from 'node:crypto';
import { Keyring, TAG_BYTES } from './keyring.js';
import { ReplayWindow } from './replay-window.js';

/** First byte of a sealed membership packet. */
const SEALED = 0x53;
const HEAD_BYTES = 1 + 8 + 8;

export type OpenResult = { ok: true; payload: Buffer } | { ok: false; reason: 'auth' | 'stale' | 'replay' };

/**
 * Membership packets (UDP datagrams and full-state syncs over TCP) signed
 * with the group's key: `0x53`, the sender's clock (ms, f64), 8 random
 * bytes, the payload, then HMAC-SHA256 of all that. A packet is accepted
 * once, and only while its stamp is within the window of this member's clock.
 */
export class PacketSealer {
  private readonly replays: ReplayWindow;

  constructor(private readonly keys: Keyring, windowMs = 30_000) {
    this.replays = new ReplayWindow(windowMs);
  }

  seal(payload: Buffer, nowMs: number): Buffer {
    const head = Buffer.allocUnsafe(HEAD_BYTES);
    head[0] = SEALED;
    head.writeDoubleLE(nowMs, 1);
    randomBytes(8).copy(head, 9);
    return Buffer.concat([head, payload, this.keys.tag([head, payload])]);
  }

  open(bytes: Buffer, nowMs: number): OpenResult {
    if (bytes.length < HEAD_BYTES + TAG_BYTES || bytes[0] !== SEALED) return { ok: false, reason: 'auth' };
    const head = bytes.subarray(0, HEAD_BYTES);
    const payload = bytes.subarray(HEAD_BYTES, bytes.length - TAG_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    if (this.keys.verify([head, payload], tag) === undefined) return { ok: false, reason: 'auth' };
    const seen = this.replays.check(tag.toString('base64'), head.readDoubleLE(1), nowMs);
    return seen === 'ok' ? { ok: true, payload } : { ok: false, reason: seen };
  }
}

/**
 * The sender a packet claims in its (unverified) header, sealed or not:
 * what a packet that failed authentication says of itself, for diagnosis
 * only, never trusted.
 */
export function claimedSender(bytes: Buffer): { id: string; gossipAddr: string } | undefined {
  const body = bytes.length > HEAD_BYTES + TAG_BYTES && bytes[0] === SEALED ? bytes.subarray(HEAD_BYTES, bytes.length - TAG_BYTES) : bytes;
  try {
    const raw = JSON.parse(body.toString('utf8')) as { f?: unknown; a?: unknown };
    if (typeof raw.f === 'string' && typeof raw.a === 'string') return { id: raw.f, gossipAddr: raw.a };
  } catch {
    // not a membership packet at all
  }
  return undefined;
}
