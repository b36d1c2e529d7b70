/** W3C baggage limits: entries and bytes of one header that are looked at. */
export const BAGGAGE_MAX_ENTRIES = 180;
export const BAGGAGE_MAX_LENGTH = 8192;

// RFC 7230 token: the characters a baggage key may use.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isOws(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

/**
 * Add the entries of a W3C `baggage` header to `into` (key → URL-unescaped
 * value). Properties after `;` are dropped. A malformed entry (no `=`, a key
 * that is not a token, a value that does not unescape) is skipped; nothing
 * here throws. Only the first BAGGAGE_MAX_LENGTH characters and
 * BAGGAGE_MAX_ENTRIES entries count.
 */
export function parseBaggage(header: string, into: Record<string, string>): void {
  const text = header.length > BAGGAGE_MAX_LENGTH ? header.slice(0, BAGGAGE_MAX_LENGTH) : header;
  let entries = 0;
  let start = 0;
  while (start <= text.length && entries < BAGGAGE_MAX_ENTRIES) {
    let end = text.indexOf(',', start);
    if (end < 0) end = text.length;
    addMember(text, start, end, into);
    entries++;
    start = end + 1;
  }
}

function addMember(text: string, from: number, to: number, into: Record<string, string>): void {
  const semi = text.indexOf(';', from);
  const stop = semi >= 0 && semi < to ? semi : to;
  const eq = text.indexOf('=', from);
  if (eq < 0 || eq >= stop) return;
  let ks = from;
  let ke = eq;
  while (ks < ke && isOws(text.charCodeAt(ks))) ks++;
  while (ke > ks && isOws(text.charCodeAt(ke - 1))) ke--;
  let vs = eq + 1;
  let ve = stop;
  while (vs < ve && isOws(text.charCodeAt(vs))) vs++;
  while (ve > vs && isOws(text.charCodeAt(ve - 1))) ve--;
  const key = text.slice(ks, ke);
  if (!TOKEN.test(key)) return;
  const raw = text.slice(vs, ve);
  let value: string;
  if (raw.indexOf('%') < 0) {
    value = raw;
  } else {
    try {
      value = decodeURIComponent(raw);
    } catch {
      return;
    }
  }
  Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
}
