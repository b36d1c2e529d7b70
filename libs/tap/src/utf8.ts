/**
 * The longest prefix of `buf` (at most `max` bytes) that does not end inside
 * a UTF-8 sequence, decoded. Invalid bytes elsewhere become U+FFFD as usual.
 */
export function utf8Prefix(buf: Buffer, max: number): string {
  let end = Math.min(buf.length, max);
  if (end < buf.length && isContinuation(buf[end] ?? 0)) {
    // The cut falls inside a sequence: drop the sequence's lead and continuation bytes.
    let lead = end - 1;
    while (lead > 0 && end - lead < 4 && isContinuation(buf[lead] ?? 0)) lead--;
    end = lead;
  }
  return buf.toString('utf8', 0, end);
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}
