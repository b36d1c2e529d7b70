import type { IncomingMessage, OutgoingMessage } from 'node:http';

/**
 * Streams `src` into `dst` with back-pressure, after the chunks already read
 * (`prefix`), then ends `dst` with `src`'s trailers, if any. Errors are left to
 * the callers' 'error'/'close' handlers on both sides.
 */
export function pipeBody(src: IncomingMessage, dst: OutgoingMessage, prefix: readonly Buffer[] = [], srcEnded = false): void {
  for (const chunk of prefix) dst.write(chunk);
  const end = (): void => {
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
