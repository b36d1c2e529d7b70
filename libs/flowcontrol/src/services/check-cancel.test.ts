// A caller that goes away: Check, CheckHTTP and CheckHTTPStream abort the DecideContext's signal,
// so a limiter that waits (a scheduler's queued flow) stops waiting at once.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { serviceClient, type CheckHTTPStreamRequest, type CheckHTTPStreamResponse__Output } from '@sluice/proto';
import { Engine } from '../check/engine.js';
import { registerFlowControlServices } from './register-services.js';
import type { DecideContext, Limiter, LimiterResult } from '../check/component.js';
import { startTestServer, TEST_KINDS } from '../testing/test-support.js';

type Cb = (err: grpc.ServiceError | null, res: unknown) => void;
type UnaryClient = grpc.Client & Record<string, (req: unknown, opts: grpc.CallOptions, cb: Cb) => grpc.ClientUnaryCall>;
type StreamClient = grpc.Client & { CheckHTTPStream(): grpc.ClientDuplexStream<CheckHTTPStreamRequest, CheckHTTPStreamResponse__Output> };

/** A scheduler-like limiter whose flows wait until their caller goes away (or 10 s). */
function waitingLimiter(): { limiter: Limiter; started: Promise<DecideContext>; aborted: Promise<number> } {
  let onStart: (ctx: DecideContext) => void = () => undefined;
  let onAbort: (at: number) => void = () => undefined;
  const started = new Promise<DecideContext>((r) => { onStart = r; });
  const aborted = new Promise<number>((r) => { onAbort = r; });
  const limiter: Limiter = {
    kind: TEST_KINDS.scheduler,
    identity: { policy_name: 'p', policy_hash: 'h', component_id: 'waiting' },
    decide: (_labels, ctx) => new Promise<LimiterResult>((resolve) => {
      onStart(ctx);
      const timer = setTimeout(() => resolve({ accepted: true, waitMs: 10_000 }), 10_000);
      ctx.signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        onAbort(performance.now());
        resolve({ accepted: false, waitMs: 1 });
      }, { once: true });
    }),
  };
  return { limiter, started, aborted };
}

async function setup(t: TestContext): Promise<{ grpcAddress: string; waiting: ReturnType<typeof waitingLimiter> }> {
  const engine = new Engine({ asyncDecisionTimeoutMs: 20_000 });
  const waiting = waitingLimiter();
  engine.register(waiting.limiter, { control_point: 'cp' });
  const s = await startTestServer((server) => registerFlowControlServices(server, engine, undefined));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  return { grpcAddress: s.grpcAddress, waiting };
}

const httpReq = {
  control_point: 'cp',
  source: { address: '10.9.9.9', port: 51000 },
  destination: { address: '10.1.2.3', port: 8080 },
  request: { method: 'GET', path: '/', host: 'web', scheme: 'http', size: 0, protocol: 'HTTP/1.1', headers: {}, body: '', truncated_body: false },
};

async function cancelUnary(t: TestContext, service: 'flowControl' | 'flowControlHttp', rpc: string, req: unknown): Promise<void> {
  const { grpcAddress, waiting } = await setup(t);
  const Ctor = serviceClient(service);
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as UnaryClient;
  t.after(() => client.close());
  const outcome = new Promise<grpc.ServiceError | null>((resolve) => {
    const c = client[rpc](req, { deadline: Date.now() + 15_000 }, (err) => resolve(err));
    void waiting.started.then((ctx) => {
      assert.ok(ctx.signal !== undefined, 'the limiter gets a signal');
      assert.equal(ctx.signal.aborted, false, 'not aborted while the caller waits');
      c.cancel();
    });
  });
  const ctx = await waiting.started;
  const cancelledAt = performance.now();
  const err = await outcome;
  assert.equal(err?.code, grpc.status.CANCELLED);
  const abortedAt = await Promise.race([waiting.aborted, new Promise<number>((r) => setTimeout(() => r(Infinity), 3000))]);
  assert.ok(abortedAt - cancelledAt < 1000, `the waiting flow left within a second of the cancel, not after its 10 s wait (${abortedAt - cancelledAt} ms)`);
  assert.equal(ctx.signal?.aborted, true);
}

test('Check: a cancelled call aborts the signal of its waiting flow at once', { timeout: 10_000 }, async (t) => {
  await cancelUnary(t, 'flowControl', 'Check', { control_point: 'cp', labels: { a: 'b' } });
});

test('CheckHTTP: a cancelled call aborts the signal of its waiting flow at once', { timeout: 10_000 }, async (t) => {
  await cancelUnary(t, 'flowControlHttp', 'CheckHTTP', httpReq);
});

test('CheckHTTPStream: a cancelled stream aborts the signals of its waiting flows at once', { timeout: 10_000 }, async (t) => {
  const { grpcAddress, waiting } = await setup(t);
  const Ctor = serviceClient('flowControlHttp');
  const client = new Ctor(grpcAddress, grpc.credentials.createInsecure()) as unknown as StreamClient;
  t.after(() => client.close());
  const call = client.CheckHTTPStream();
  call.on('error', () => undefined);
  call.on('data', () => assert.fail('no answer: the flow waits until the stream is cancelled'));
  call.write({ id: 1, request: httpReq });
  const ctx = await waiting.started;
  assert.equal(ctx.signal?.aborted, false);
  const cancelledAt = performance.now();
  call.cancel();
  const abortedAt = await Promise.race([waiting.aborted, new Promise<number>((r) => setTimeout(() => r(Infinity), 3000))]);
  assert.ok(abortedAt - cancelledAt < 1000, `the waiting flow left within a second of the cancel (${abortedAt - cancelledAt} ms)`);
});
