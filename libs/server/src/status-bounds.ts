import { BAD_REQUEST_TYPE } from './status-details.js';

/**
 * Bounds on what a status carries in its trailers. gRPC sends the message
 * percent-encoded in `grpc-message` and the details base64-encoded in
 * `grpc-status-details-bin`; peers refuse header lists past a few KiB (8 KiB
 * by default in grpc-js and grpc-go), and a refused trailer leaves the caller
 * without any status. With these bounds the two trailers stay under ~6 KiB
 * whatever the error says: the message under 512 UTF-8 bytes (≤ 1.5 KiB
 * percent-encoded), the details under 3 KiB (4 KiB in base64).
 */
export const MAX_STATUS_MESSAGE_BYTES = 512;
export const MAX_STATUS_DETAILS_BYTES = 3072;
/** At most this many field violations are listed; the rest are counted in a last "and K more" entry. */
export const MAX_LISTED_VIOLATIONS = 20;
const MAX_FIELD_BYTES = 200;
const MAX_DESCRIPTION_BYTES = 400;

/** `text` cut to at most `maxBytes` UTF-8 bytes (on a character boundary), marked when cut. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  const suffix = ` … (${text.length} characters in all)`;
  const budget = Math.max(0, maxBytes - Buffer.byteLength(suffix));
  let bytes = 0;
  let out = '';
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > budget) break;
    bytes += n;
    out += ch;
  }
  return out + suffix;
}

interface FieldViolation { field: string; description: string }

function boundViolations(violations: readonly FieldViolation[]): FieldViolation[] {
  const listed: FieldViolation[] = [];
  let bytes = 0;
  for (const v of violations) {
    const bounded = { field: truncateUtf8(String(v.field), MAX_FIELD_BYTES), description: truncateUtf8(String(v.description), MAX_DESCRIPTION_BYTES) };
    // Each violation costs its two strings and a few bytes of protobuf framing.
    const size = Buffer.byteLength(bounded.field) + Buffer.byteLength(bounded.description) + 8;
    if (listed.length >= MAX_LISTED_VIOLATIONS || bytes + size > MAX_STATUS_DETAILS_BYTES - 64) break;
    listed.push(bounded);
    bytes += size;
  }
  const more = violations.length - listed.length;
  if (more > 0) listed.push({ field: '', description: `and ${more} more` });
  return listed;
}

/** A status's message and details within the bounds above (BadRequest violations listed first-N plus "and K more"). */
export function boundStatus(message: string, details: readonly unknown[]): { message: string; details: unknown[] } {
  return {
    message: truncateUtf8(message, MAX_STATUS_MESSAGE_BYTES),
    details: details.map((d) => {
      const violations = (d as { field_violations?: unknown } | null)?.field_violations;
      if ((d as { '@type'?: unknown } | null)?.['@type'] !== BAD_REQUEST_TYPE || !Array.isArray(violations)) return d;
      return { ...(d as object), field_violations: boundViolations(violations as FieldViolation[]) };
    }),
  };
}
