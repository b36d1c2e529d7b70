import { transferCodingProblem } from './request-head.js';
import { STATUS_CODES } from 'node:http';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Characters Node (and RFC 9112's reason-phrase) refuses in a status message. */
const BAD_REASON = /[^\t\x20-\x7e\x80-\xff]/;

/** The workload's reason phrase when Node can write it, else the standard one for `status`. */
export function safeReason(status: number, reason: string | undefined): string {
  if (reason !== undefined && !BAD_REASON.test(reason)) return reason;
  return STATUS_CODES[status] ?? '';
}

/**
 * Why a response head with more header fields than `max` is refused (502), or
 * undefined when it has at most `max`. `rawHeaders` is the flat [name, value,
 * ...] list; Node's client keeps every field when its count bound is 0.
 */
export function responseHeadCountProblem(rawHeaders: readonly unknown[], max: number): string | undefined {
  return rawHeaders.length > max * 2 ? `the workload's response head has more than ${max} header fields` : undefined;
}

/**
 * Why a response head from the workload is refused for its transfer coding
 * (anything but chunked; see transferCodingProblem), or undefined. `rawHeaders`
 * is the flat [name, value, ...] list, as strings (node:http) or bytes (undici).
 */
export function responseCodingProblem(rawHeaders: readonly (string | Buffer)[]): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i] as string | Buffer;
    if (name.length !== 17 || name.toString('latin1').toLowerCase() !== 'transfer-encoding') continue;
    const problem = transferCodingProblem((rawHeaders[i + 1] as string | Buffer).toString('latin1'));
    if (problem !== undefined) return `the workload's response: ${problem}`;
  }
  return undefined;
}

/** Whether `status` can be the final status of a relayed response. */
export function relayableStatus(status: number | undefined): status is number {
  return status !== undefined && Number.isInteger(status) && status >= 200 && status <= 999;
}

/**
 * Writes the head of a relayed response. Workload bytes Node refuses (a status
 * out of range, a header Node will not write) make it return false with
 * nothing written, for the caller to answer 502 instead; it never throws.
 */
export function writeRelayedHead(res: ServerResponse, status: number | undefined, reason: string | undefined, headers: OutgoingHttpHeaders): boolean {
  if (!relayableStatus(status)) return false;
  try {
    res.writeHead(status, safeReason(status, reason), headers);
    return true;
  } catch {
    // writeHead validates before it writes: nothing reached the client.
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    return false;
  }
}
