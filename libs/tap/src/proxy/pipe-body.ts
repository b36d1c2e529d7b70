import type { IncomingMessage, OutgoingMessage } from 'node:http';

/**
 * Streams `src` into `dst` with back-pressure, after the chunks already read
 * (`prefix`), then ends `dst` with `src`'s trailers, if any. With more
 * trailer fields than `maxTrailers`, `dst` is not ended and
 * `onTooManyTrailers` is called instead (the caller refuses the message, as
 * for too many header fields: trailers are never dropped silently). Errors
 * are left to the callers' 'error'/'close' handlers on both sides.
 */
export function pipeBody(src: IncomingMessage, dst: OutgoingMessage, prefix: readonly Buffer[], srcEnded: boolean,
  maxTrailers: number, onTooManyTrailers: (count: number) => void): void {
  for (const chunk of prefix) dst.write(chunk);
  const end = (): void => {
    const raw = src.rawTrailers;
    if (raw.length > maxTrailers * 2) {
      onTooManyTrailers(raw.length / 2);
      return;
    }
    const trailers = src.trailers;
    if (trailers !== undefined && Object.keys(trailers).length > 0) {
      try {
        dst.addTrailers(trailers);
      } catch {
        // A trailer Node will not write: the body still ends, without it.
      }
    }
    dst.end();
  };
  if (srcEnded || src.readableEnded) {
    end();
    return;
  }
  src.on('end', end);
  src.pipe(dst, { end: false });
}

/** The message of a response with more trailer fields than `max`. */
export function tooManyTrailers(whose: 'request' | "workload's response", count: number, max: number): string {
  return `the ${whose} has ${count} trailer fields; at most ${max} are allowed (the header field limit)`;
}
