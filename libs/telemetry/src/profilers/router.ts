import express, { Router, type Request, type Response } from 'express';
import { NotFoundError, PayloadTooLargeError, toGatewayError } from '@sluice/errors';
import type { ProfilersConfig } from '../config.js';
import { ProfilerBusyError } from './busy-error.js';
import { parseProfileSeconds } from './profile-seconds.js';
import { acquireProfiler, ensureHeapSampling, profilerHolder, releaseProfiler, TIME_PROFILER_OPTIONS } from './profiler-state.js';
import { pprof } from './pprof-module.js';

const SYMBOL_BODY_LIMIT = '64kb';

function sendError(res: Response, err: unknown): void {
  const { status, body } = toGatewayError(err);
  res.status(status).json(body);
}

function sendProfile(res: Response, name: string, data: Buffer): void {
  res
    .status(200)
    .set('Content-Type', 'application/octet-stream')
    .set('X-Content-Type-Options', 'nosniff')
    .set('Content-Disposition', `attachment; filename="${name}"`)
    .send(data);
}

/** Resolves after `ms`, or earlier when the client goes away (true then). */
function waitOrDisconnect(res: Response, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    res.once('close', onClose);
  });
}

async function profile(req: Request, res: Response): Promise<void> {
  let seconds: number;
  try {
    seconds = parseProfileSeconds(req.query.seconds);
  } catch (err) {
    sendError(res, err);
    return;
  }
  if (!acquireProfiler('http')) {
    sendError(res, new ProfilerBusyError(profilerHolder()));
    return;
  }
  try {
    pprof().time.start(TIME_PROFILER_OPTIONS);
    const gone = await waitOrDisconnect(res, seconds * 1000);
    const taken = pprof().time.stop();
    if (gone) return;
    sendProfile(res, 'profile', await pprof().encode(taken));
  } finally {
    releaseProfiler('http');
  }
}

async function heap(_req: Request, res: Response): Promise<void> {
  sendProfile(res, 'heap', await pprof().encode(pprof().heap.profile()));
}

function cmdline(_req: Request, res: Response): void {
  const argv = [process.argv[0], ...process.execArgv, ...process.argv.slice(1)];
  res.status(200).set('X-Content-Type-Options', 'nosniff').type('text/plain; charset=utf-8').send(argv.join('\0'));
}

/**
 * Go's symbol protocol: GET says `num_symbols: 1` (symbol lookup is
 * supported); POST (or a GET query) lists `0x…+0x…` addresses and the answer
 * names those it knows. Addresses in a Node profile are not machine code
 * addresses (pprof profiles from this process carry their own function
 * names), so none resolve and the answer is the header alone.
 */
function symbol(_req: Request, res: Response): void {
  res.status(200).set('X-Content-Type-Options', 'nosniff').type('text/plain; charset=utf-8').send('num_symbols: 1\n');
}

const INDEX = `/debug/pprof/

profile  CPU profile (pprof protobuf, gzip). ?seconds=N, 1..300, default 30.
heap     Sampled heap profile (pprof protobuf, gzip).
symbol   Symbol lookup (Go's pprof symbol protocol).
cmdline  The command line, NUL-separated.
`;

/**
 * The profiling endpoints under /debug/pprof/ when
 * `profilers.register_http_routes` is true; otherwise a router with no
 * routes. One CPU profile at a time (409 otherwise, and while
 * `profilers.cpu_profiler` runs).
 */
export function profilersRouter(config: ProfilersConfig): Router {
  const router = Router();
  if (!config.register_http_routes) return router;
  ensureHeapSampling();
  router.get('/debug/pprof', (_req, res) => {
    res.status(200).type('text/plain; charset=utf-8').send(INDEX);
  });
  router.get('/debug/pprof/profile', profile);
  router.get('/debug/pprof/heap', heap);
  router.get('/debug/pprof/cmdline', cmdline);
  router.get('/debug/pprof/symbol', symbol);
  router.post(
    '/debug/pprof/symbol',
    express.text({ type: () => true, limit: SYMBOL_BODY_LIMIT }),
    symbol,
  );
  router.all('/debug/pprof/*rest', (req, res) => {
    sendError(res, new NotFoundError(`unknown profile ${req.path}`));
  });
  router.use('/debug/pprof', (err: unknown, _req: Request, res: Response, next: (err?: unknown) => void) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const type = (err as { type?: unknown }).type;
    if (type === 'entity.too.large') sendError(res, new PayloadTooLargeError(`symbol request body over ${SYMBOL_BODY_LIMIT}`));
    else sendError(res, err);
  });
  return router;
}
