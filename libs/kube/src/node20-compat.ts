// @kubernetes/client-node 2.x depends on undici 8, which is written for Node >= 22 and fails to
// load on Node 20 (this project's engine): at import it calls zlib.createZstdDecompress and
// worker_threads.markAsUncloneable, and fetch uses Promise.withResolvers. This module, imported
// before client-node everywhere in this package, supplies the three where Node lacks them:
// zstd decoding throws (no API server sends zstd unless asked), marking as uncloneable is a no-op
// (it only changes structuredClone errors), and Promise.withResolvers is the standard shape.
// On Node >= 22.15 it changes nothing.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const zlib = require('node:zlib') as Record<string, unknown>;
const workerThreads = require('node:worker_threads') as Record<string, unknown>;

if (typeof zlib.createZstdDecompress !== 'function') {
  zlib.createZstdDecompress = () => {
    throw new Error('zstd content encoding needs Node >= 22.15');
  };
}
if (typeof workerThreads.markAsUncloneable !== 'function') {
  workerThreads.markAsUncloneable = () => undefined;
}

interface WithResolvers {
  withResolvers?: <T>() => { promise: Promise<T>; resolve: (v: T | PromiseLike<T>) => void; reject: (e: unknown) => void };
}
const P = Promise as unknown as WithResolvers;
if (typeof P.withResolvers !== 'function') {
  P.withResolvers = <T>() => {
    let resolve!: (v: T | PromiseLike<T>) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}

export const NODE20_COMPAT = true;
