import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { Registry } from 'prom-client';
import { createServer } from './create-server.js';
import { ECHO_SERVICE, EchoClient, defaultConfig, type EchoRequest, type EchoResponse } from './test-support.js';
import type { SluiceServer } from './types.js';

/** What the slow Echo handler saw of each call. */
interface Seen { started: number; cancelled: boolean[]; answered: number }

function settleWithin<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_r, reject) => { timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms); });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/**
 * A server whose Echo waits `delay_ms` (as long as the call lives) before answering,
 * and answers `message` repeated `fail_code` times (a way to ask for a large reply).
 */
async function start(t: { after: (fn: () => Promise<void>) => void }, http: { write_timeout?: string } = {}) {
  const seen: Seen = { started: 0, cancelled: [], answered: 0 };
  let onCancel: () => void = () => undefined;
  const cancelled = new Promise<void>((resolve) => { onCancel = resolve; });
  const impl: grpc.UntypedServiceImplementation = {
    Echo: ((call: grpc.ServerUnaryCall<EchoRequest, EchoResponse>, callback: grpc.sendUnaryData<EchoResponse>) => {
      seen.started++;
      let answered = false;
      const timer = setTimeout(() => {
        answered = true;
        seen.answered++;
        callback(null, { message: call.request.message.repeat(Math.max(1, call.request.fail_code)), served_by: 'slow' });
      }, call.request.delay_ms);
      // grpc-js also emits 'cancelled' when the stream closes after the answer: count only calls cut short.
      call.once('cancelled', () => {
        if (answered) return;
        clearTimeout(timer);
        seen.cancelled.push(call.cancelled);
        onCancel();
      });
    }) as grpc.handleUnaryCall<EchoRequest, EchoResponse>,
  };
  const server: SluiceServer = createServer(defaultConfig({ http }), { registry: new Registry() });
  server.addService(EchoClient.service, impl);
  server.addGatewayRoute({
    method: 'post', path: '/v1/slow', service: ECHO_SERVICE, rpc: 'Echo', requireBody: true, timeoutMs: 20_000,
    toRequest: ({ body }) => body as object,
  });
  server.addGatewayRoute({
    method: 'post', path: '/v1/big', service: ECHO_SERVICE, rpc: 'Echo', bodyLimitBytes: 8 << 20, toRequest: ({ body }) => body as object,
  });
  await server.start();
  t.after(() => server.shutdown({ deadlineMs: 1000 }));
  const base = `http://127.0.0.1:${server.address().port}`;
  const until = async (cond: () => boolean): Promise<void> => {
    const end = Date.now() + 3000;
    while (!cond()) {
      if (Date.now() > end) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { seen, cancelled, base, until };
}

const post = (base: string, body: object, signal?: AbortSignal, path = '/v1/slow'): Promise<Response> =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });

test('an HTTP client going away cancels the gRPC call behind its gateway route', async (t) => {
  const { seen, cancelled, base, until } = await start(t);
  const ac = new AbortController();
  const pending = post(base, { message: 'wait', delay_ms: 15_000 }, ac.signal).catch((e: unknown) => e);
  await until(() => seen.started === 1);
  ac.abort();
  assert.ok((await pending) instanceof Error);
  await settleWithin(cancelled, 3000, 'the handler sees the cancellation');
  assert.deepEqual(seen.cancelled, [true], 'call.cancelled is set when the event fires');
  assert.equal(seen.answered, 0);
});

test('a call answered in time is not cancelled, and the server keeps serving after a cancellation', async (t) => {
  const { seen, base, until } = await start(t);
  const ac = new AbortController();
  const gone = post(base, { message: 'wait', delay_ms: 15_000 }, ac.signal).catch((e: unknown) => e);
  await until(() => seen.started === 1);
  ac.abort();
  await gone;
  await until(() => seen.cancelled.length === 1);
  const res = await post(base, { message: 'ok', delay_ms: 1 });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { message: 'ok', served_by: 'slow' });
  assert.equal(seen.answered, 1);
  assert.equal(seen.cancelled.length, 1, 'only the abandoned call was cut short');
});

test('the write timeout answering first also cancels the call', async (t) => {
  const { seen, cancelled, base } = await start(t, { write_timeout: '200ms' });
  const res = await post(base, { message: 'wait', delay_ms: 15_000 });
  assert.equal(res.status, 503);
  await settleWithin(cancelled, 3000, 'the handler sees the cancellation');
  assert.deepEqual(seen.cancelled, [true]);
});

test('replies over the 4 MiB gRPC default reach the HTTP client; requests over it are 413', async (t) => {
  const { base } = await start(t);
  const res = await post(base, { message: 'x'.repeat(1024), delay_ms: 1, fail_code: 6 * 1024 });
  assert.equal(res.status, 200);
  const body = (await res.json()) as EchoResponse;
  assert.equal(body.message.length, 6 * 1024 * 1024);
  const big = await post(base, { message: 'y'.repeat(5 << 20) }, undefined, '/v1/big');
  assert.equal(big.status, 413);
  const error = (await big.json()) as { code: number; message: string; details: unknown[] };
  assert.equal(error.code, 8);
  assert.match(error.message, /gRPC message limit of 4194304 bytes/);
  assert.equal((await post(base, { message: 'y'.repeat(3 << 20) }, undefined, '/v1/big')).status, 200, 'under both limits');
});
