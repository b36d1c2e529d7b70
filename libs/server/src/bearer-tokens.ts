import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';

/** How often the token file is looked at for a change (rotation needs no restart). */
const RECHECK_MS = 1000;

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * The bearer tokens of a token file: one token a line, blank lines and lines starting with `#`
 * ignored, surrounding spaces trimmed. The file is looked at again at most once a second and re-read
 * when its size, modification time or inode changed, so tokens are rotated by rewriting the file
 * (or by a Kubernetes Secret volume's update): add the new token, move the callers, remove the old
 * one. A file that cannot be read (or holds no token) accepts no token; the last good set is not
 * kept, so a deleted file locks the API rather than leaving revoked tokens valid.
 */
export class BearerTokens {
  private digests: Buffer[] = [];
  private stamp = '';
  private checkedAt = -Infinity;

  constructor(readonly path: string, private readonly now: () => number = () => performance.now()) {
    this.refresh(true);
  }

  /** Whether `token` is one of the file's tokens (constant-time comparison of digests). */
  accepts(token: string): boolean {
    if (token === '') return false;
    this.refresh(false);
    const d = digest(token);
    let ok = false;
    for (const known of this.digests) ok = timingSafeEqual(known, d) || ok;
    return ok;
  }

  /** How many tokens the file holds now. */
  get size(): number {
    this.refresh(false);
    return this.digests.length;
  }

  private refresh(force: boolean): void {
    const now = this.now();
    if (!force && now - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = now;
    let stamp: string;
    try {
      const st = statSync(this.path);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      this.digests = [];
      this.stamp = '';
      return;
    }
    if (!force && stamp === this.stamp) return;
    try {
      const text = readFileSync(this.path, 'utf8');
      this.digests = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#')).map(digest);
      this.stamp = stamp;
    } catch {
      this.digests = [];
      this.stamp = '';
    }
  }
}

/** The token of an `Authorization: Bearer <token>` value, '' when there is none. */
export function bearerOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(value ?? '');
  return m?.[1] ?? '';
}
