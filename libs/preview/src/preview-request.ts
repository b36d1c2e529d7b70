import { InvalidArgumentError } from '@sluice/errors';
import { checkControlPoint } from '@sluice/flowcontrol';
import type { JsonObject } from '@sluice/proto';
import { compileLabelMatcher, type LabelMatcher } from '@sluice/selectors';
import { DEFAULT_SAMPLES, MAX_SAMPLES } from './preview-config.js';

/** A checked preview request. */
export interface PreviewParams {
  controlPoint: string;
  samples: number;
  service: string;
  matcher: LabelMatcher;
}

const DIGITS = /^[0-9]{1,10}$/;
const MAX_SERVICE_LENGTH = 512;

function samplesError(got: string): InvalidArgumentError {
  return new InvalidArgumentError(`samples must be an integer from 1 to ${MAX_SAMPLES}, got ${JSON.stringify(got.length > 40 ? `${got.slice(0, 40)}...` : got)}`, 'samples');
}

/** `samples` of the query string: absent → 10; once, an integer 1..1000. */
export function samplesFromQuery(raw: string | string[] | undefined | unknown): number {
  if (raw === undefined) return DEFAULT_SAMPLES;
  if (typeof raw !== 'string') throw new InvalidArgumentError('samples must be given at most once, as an integer', 'samples');
  if (!DIGITS.test(raw)) throw samplesError(raw);
  const n = Number(raw);
  if (n < 1 || n > MAX_SAMPLES) throw samplesError(raw);
  return n;
}

/** `samples` of a gRPC request: 0 → 10; else 1..1000. */
export function samplesFromMessage(n: number): number {
  if (n === 0) return DEFAULT_SAMPLES;
  if (!Number.isInteger(n) || n < 1 || n > MAX_SAMPLES) throw samplesError(String(n));
  return n;
}

/** `wait_ms` of the query string: absent → `maxWaitMs`; once, an integer from 1, at most `maxWaitMs` (a longer wait is cut to it). */
export function waitFromQuery(raw: unknown, maxWaitMs: number): number {
  if (raw === undefined) return maxWaitMs;
  if (typeof raw !== 'string' || !DIGITS.test(raw) || Number(raw) < 1) {
    throw new InvalidArgumentError(`wait_ms must be given at most once, as a whole number of milliseconds from 1, got ${JSON.stringify(typeof raw === 'string' ? raw.slice(0, 40) : raw)}`, 'wait_ms');
  }
  return Math.min(maxWaitMs, Number(raw));
}

/** `service`: absent or empty → `any`; once, at most 512 characters. */
export function serviceFrom(raw: unknown): string {
  if (raw === undefined || raw === '') return 'any';
  if (typeof raw !== 'string') throw new InvalidArgumentError('service must be given at most once', 'service');
  if (raw.length > MAX_SERVICE_LENGTH) throw new InvalidArgumentError(`service must be at most ${MAX_SERVICE_LENGTH} characters`, 'service');
  return raw;
}

/** The label filter of an HTTP request: its body, required, a JSON object. */
export function labelFilterFromBody(body: unknown): JsonObject {
  if (body === undefined) throw new InvalidArgumentError('request body is required: a label filter (use {} to match every request)', 'body');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidArgumentError(`request body must be a JSON object (a label filter), got ${body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body}`, 'body');
  }
  return body as JsonObject;
}

/** A checked preview request; the filter is compiled here, so errors carry its JSON paths. */
export function previewParams(controlPoint: unknown, samples: number, service: string, filter: JsonObject): PreviewParams {
  return { controlPoint: checkControlPoint(controlPoint), samples, service, matcher: compileLabelMatcher(filter) };
}
