import type { TakeResult } from '@sluice/tokenbucket';

/** Outcome of a take on a remote owner: its answer, or why there is none. */
export type RemoteTake = { ok: true; result: TakeResult } | { ok: false; reason: 'timeout' | 'error' };

/** A take this member could not decide: the member that may hold the key's state did not answer (why). */
export interface Unreached { readonly unreached: 'timeout' | 'error' }

/** Outcome of a pull: the member that still owns the key in its own view, or why the pull failed (neither: done). */
export interface Pulled { readonly holder?: string; readonly failed?: 'timeout' | 'error' }
