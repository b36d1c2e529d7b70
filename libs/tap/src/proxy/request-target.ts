import type { IncomingMessage } from 'node:http';
import { isNormalTarget, normalizeRequestTarget } from '@sluice/flowcontrol/http-path';

/**
 * Puts the request's target in normal form in place (see
 * @sluice/flowcontrol's normalizeRequestTarget), before anything reads it:
 * the check, the labels and the request to the workload then all see the
 * same target, so the tap forwards exactly the path that was decided. An
 * absolute-form target also sets Host (RFC 9112 §3.2.2: its authority wins
 * over the Host field). Answers why a target is refused (400), or undefined.
 * An already normal target costs one scan of it.
 */
export function normalizeTarget(req: IncomingMessage, mergeSlashes: boolean): string | undefined {
  const url = req.url ?? '/';
  if (isNormalTarget(url, mergeSlashes)) return undefined;
  const t = normalizeRequestTarget(url, { mergeSlashes });
  if (!t.ok) return t.reason;
  req.url = t.target;
  if (t.host !== undefined) setHost(req, t.host);
  return undefined;
}

/** Host in both the parsed and the raw headers (a repeated Host is refused earlier). */
function setHost(req: IncomingMessage, host: string): void {
  req.headers.host = host;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if ((raw[i] as string).toLowerCase() === 'host') {
      raw[i + 1] = host;
      return;
    }
  }
  raw.push('Host', host);
}
