import type { HeaderInterest__Output } from '@sluice/proto';

/** Names remembered with their verdict; past it a name is looked up each time. */
const MAX_REMEMBERED_NAMES = 512;

/**
 * The agent's latest header interest for the tap's control point: which
 * request headers (and whether the body) the agent needs. Until the agent
 * has answered with one (and for ever with an agent that does not know of
 * header interests), everything is sent, under generation 0.
 *
 * An answer's interest is taken when its generation is newer than the one
 * held (answers may arrive out of order); the interest of a
 * resend_unfiltered answer is taken whatever its generation (the agent
 * says it is the current one: an agent restarted with its clock set back).
 */
export class InterestFilter {
  #generation = 0;
  #all = true;
  #body = true;
  #headers: ReadonlySet<string> = new Set();
  /** Lower-cased header name → sent or not, for the names seen. */
  #wanted = new Map<string, boolean>();

  /** The generation the headers are filtered by (0: everything is sent). */
  get generation(): number {
    return this.#generation;
  }

  /** Whether every header is sent. */
  get all(): boolean {
    return this.#all;
  }

  /** Whether the body is worth reading for the agent. */
  wantsBody(): boolean {
    return this.#all || this.#body;
  }

  /** Whether the header `lowerName` (lower-cased) goes to the agent: its label form (`-` as `_`) is of interest. */
  wants(lowerName: string): boolean {
    if (this.#all) return true;
    const known = this.#wanted.get(lowerName);
    if (known !== undefined) return known;
    const wanted = this.#headers.has(lowerName.replaceAll('-', '_'));
    if (this.#wanted.size < MAX_REMEMBERED_NAMES) this.#wanted.set(lowerName, wanted);
    return wanted;
  }

  /** Take the interest of an answer (see the class comment); absent or malformed: nothing changes. */
  update(interest: HeaderInterest__Output | null | undefined, authoritative: boolean): void {
    if (interest === null || interest === undefined) return;
    const g = Number(interest.generation);
    if (!Number.isSafeInteger(g) || g <= 0 || g === this.#generation) return;
    if (!authoritative && g < this.#generation) return;
    this.#generation = g;
    this.#all = interest.all === true;
    this.#body = interest.body === true;
    this.#headers = new Set(Array.isArray(interest.headers) ? interest.headers : []);
    this.#wanted = new Map();
  }
}
