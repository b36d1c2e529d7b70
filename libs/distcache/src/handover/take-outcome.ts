import type { TakeResult } from '@sluice/tokenbucket';
import type { OpResult } from '../transport/ops.js';

/** Outcome of a take on a remote owner: its answer, or why there is none. */
export type RemoteTake = { ok: true; result: TakeResult } | { ok: false; reason: 'timeout' | 'error' };

/** A take this member could not decide: the member that may hold the key's state did not answer (why). */
export interface Unreached { readonly unreached: 'timeout' | 'error' }

/** Outcome of a pull: the member that still owns the key in its own view, or why the pull failed (neither: done). */
export interface Pulled { readonly holder?: string; readonly failed?: 'timeout' | 'error' }

/**
 * What an owner answers to a take it cannot decide: the key's state may
 * still be on a member it could not reach, and starting the bucket full would
 * hand out again what was spent there. The asking member falls back.
 */
export const UNREACHED_ANSWER = 'key state unreached';

/** A remote owner's answer to a take. */
export function remoteTakeOf(r: OpResult): RemoteTake {
  if ('ok' in r) return { ok: true, result: { ok: r.ok, remaining: r.rem, current: r.cur, waitMs: r.wait } };
  return { ok: false, reason: 'error' };
}
