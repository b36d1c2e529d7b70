// SIGTERM with idle clients connected: a tap's open CheckHTTPStream, an idle gRPC channel and an idle
// HTTP/1.1 keep-alive connection must not hold the agent past a couple of seconds (the charts give 30 s).
import assert from 'node:assert/strict';
import http from 'node:http';
import { test, type TestContext } from 'node:test';
import type * as grpc from '@grpc/grpc-js';
import { checkHttpRequest, grpcClient, unaryCall } from './support/clients.js';
import { startAgent, type SluiceProcess } from './support/processes.js';

interface StreamAnswer { id: number; code: number; response: unknown }
type StreamCall = grpc.ClientDuplexStream<{ id: number; request: unknown }, StreamAnswer>;

/** An agent whose liveness is enough: readiness also waits for etcd, which this test does not need. */
function startAgentPatiently(t: TestContext, args: string[] = []): Promise<SluiceProcess> {
  return startAgent(t, { args, ready: 'live' });
}

test('SIGTERM with an idle CheckHTTPStream, an idle gRPC channel and an idle keep-alive connection: exits 0 in under 2 s', { timeout: 120_000 }, async (t) => {
  const agent = await startAgentPatiently(t);
  // A tap: one CheckHTTPStream, one check answered, then idle.
  const streamClient = grpcClient(t, 'flowControlHttp', agent.address) as unknown as grpc.Client & { CheckHTTPStream(opts: grpc.CallOptions): StreamCall };
  const stream = streamClient.CheckHTTPStream({});
  const answers: StreamAnswer[] = [];
  const streamStatus = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
  stream.on('data', (a: StreamAnswer) => answers.push(a));
  stream.on('error', () => {});
  stream.write({ id: 1, request: checkHttpRequest('ingress', '/one') });
  const deadline = Date.now() + 5000;
  while (answers.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(answers[0]?.id, 1, 'the stream answers before SIGTERM');
  // An idle gRPC channel (a session with no call) and an idle HTTP/1.1 keep-alive connection.
  const unary = grpcClient(t, 'flowControlHttp', agent.address);
  await unaryCall(unary, 'CheckHTTP', checkHttpRequest('ingress', '/two'));
  const agentHttp = new http.Agent({ keepAlive: true });
  t.after(() => agentHttp.destroy());
  await new Promise<void>((resolve, reject) => {
    http.get(`${agent.base}/healthz`, { agent: agentHttp }, (res) => { res.resume(); res.on('end', resolve); }).on('error', reject);
  });

  const started = Date.now();
  agent.child.kill('SIGTERM');
  const exit = await agent.exited;
  const took = Date.now() - started;
  assert.deepEqual(exit, { code: 0, signal: null }, agent.output());
  assert.ok(took < 2000, `exited in ${took} ms (target < 2 s)`);
  const status = await streamStatus;
  assert.equal(status.code, 0, `the idle stream was ended with OK, not cut: ${status.details}`);
});
