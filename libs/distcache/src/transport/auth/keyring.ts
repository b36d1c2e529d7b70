import { createHmac, timingSafeEqual } from 'node:crypto';

/** Bytes of every HMAC-SHA256 tag. */
export const TAG_BYTES = 32;
/** Shortest key accepted (bytes of its UTF-8 text). */
export const MIN_KEY_BYTES = 16;

/**
 * The group's shared keys: the first signs, every one verifies (rotation:
 * add the new key second everywhere, then first, then drop the old one).
 */
export class Keyring {
  readonly keys: readonly Buffer[];

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0) throw new RangeError('a keyring needs at least one key');
    for (const k of keys) if (k.length < MIN_KEY_BYTES) throw new RangeError(`a key of ${k.length} bytes is under the minimum of ${MIN_KEY_BYTES}`);
    this.keys = keys;
  }

  get signing(): Buffer {
    return this.keys[0];
  }

  /** HMAC-SHA256 of the parts with `key` (the signing key by default). */
  tag(parts: readonly Buffer[], key: Buffer = this.signing): Buffer {
    const h = createHmac('sha256', key);
    for (const p of parts) h.update(p);
    return h.digest();
  }

  /** The key whose tag of `parts` is `tag` (constant-time compare), or undefined. */
  verify(parts: readonly Buffer[], tag: Buffer): Buffer | undefined {
    if (tag.length !== TAG_BYTES) return undefined;
    for (const k of this.keys) if (timingSafeEqual(this.tag(parts, k), tag)) return k;
    return undefined;
  }
}

/**
 * Keys from text: one a line or comma-separated, blanks and lines starting
 * with `#` ignored; each at least MIN_KEY_BYTES bytes (a RangeError names
 * the line otherwise, never the key).
 */
export function parseKeys(text: string): Buffer[] {
  const out: Buffer[] = [];
  const items = text.split(/[\n,]/).map((s) => s.trim()).filter((s) => s.length > 0 && !s.startsWith('#'));
  items.forEach((s, i) => {
    const b = Buffer.from(s, 'utf8');
    if (b.length < MIN_KEY_BYTES) throw new RangeError(`key ${i + 1} has ${b.length} bytes, under the minimum of ${MIN_KEY_BYTES}`);
    out.push(b);
  });
  return out;
}
