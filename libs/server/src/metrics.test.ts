import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { EchoClient, callEcho, defaultConfig, startEchoServer } from './test-support.js';

test('gRPC metrics are recorded per service/method/code with the configured buckets in seconds', async (t) => {
  const s = await startEchoServer(defaultConfig({ grpc: { latency_buckets_ms: [25, 500] } }));
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown({ deadlineMs: 1000 }); });
  await callEcho(client, { message: 'a' });
  await assert.rejects(callEcho(client, { message: 'b', fail_code: 3 }), { code: 3 });
  const text = await s.registry.metrics();
  const labels = 'grpc_type="unary",grpc_service="sluice.test.echo.v1.EchoService",grpc_method="Echo"';
  assert.match(text, new RegExp(`grpcserver_started_total\\{${labels}\\} 2`));
  assert.match(text, new RegExp(`grpcserver_handled_total\\{${labels},grpc_code="OK"\\} 1`));
  assert.match(text, new RegExp(`grpcserver_handled_total\\{${labels},grpc_code="InvalidArgument"\\} 1`));
  assert.match(text, new RegExp(`grpcserver_msg_received_total\\{${labels}\\} 2`));
  assert.match(text, new RegExp(`grpcserver_msg_sent_total\\{${labels}\\} 1`));
  assert.match(text, /grpcserver_handling_seconds_bucket\{le="0\.025",grpc_type="unary"/);
  assert.match(text, /grpcserver_handling_seconds_bucket\{le="0\.5",/);
  assert.match(text, new RegExp(`grpcserver_handling_seconds_count\\{${labels}\\} 2`));
});

test('HTTP metrics use the route pattern, status and the configured buckets', async (t) => {
  const s = await startEchoServer(defaultConfig({ http: { latency_buckets_ms: [25, 100] } }), (server) => {
    const router = express.Router();
    router.get('/items/:id', (req, res) => { res.json({ id: req.params.id }); });
    router.get('/slow/:id', async (req, res) => { await new Promise((r) => setTimeout(r, 20)); res.json({ id: req.params.id }); });
    server.app.use('/v1', router);
    server.app.get('/boom', () => { throw new Error('boom'); });
  });
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  for (const id of ['1', '2', '3']) assert.equal((await fetch(`${s.base}/v1/items/${id}`)).status, 200);
  assert.equal((await fetch(`${s.base}/v1/slow/9`)).status, 200);
  assert.equal((await fetch(`${s.base}/nowhere/123`)).status, 404);
  const boom = await fetch(`${s.base}/boom`);
  assert.equal(boom.status, 500);
  assert.deepEqual(await boom.json(), { code: 13, message: 'internal error', details: [] });
  const text = await s.registry.metrics();
  assert.match(text, /http_requests_total\{method="GET",route="\/v1\/items\/:id",status="200"\} 3/);
  assert.match(text, /http_requests_total\{method="GET",route="\/v1\/slow\/:id",status="200"\} 1/, 'an async handler of a mounted router keeps its prefix');
  assert.match(text, /http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
  assert.match(text, /http_request_errors_total\{method="GET",route="\/boom",status="500"\} 1/);
  assert.match(text, /http_request_duration_seconds_bucket\{le="0\.025",method="GET",route="\/v1\/items\/:id",status="200"\} \d/);
  assert.match(text, /http_request_duration_seconds_bucket\{le="0\.1",/);
  assert.match(text, /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/items\/:id",status="200"\} 3/);
  assert.doesNotMatch(text, /route="\/v1\/items\/1"/);
});

const identity = (b: Buffer): Buffer => b;
const CHAT_PATH = '/sluice.test.chat.v1.Chat/Chat';
const HANG_PATH = '/sluice.test.chat.v1.Chat/Hang';
const chatService: grpc.ServiceDefinition = {
  Chat: { path: CHAT_PATH, requestStream: true, responseStream: true, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity },
  Hang: { path: HANG_PATH, requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity },
};

test('gRPC metrics of streaming calls (interceptor) and of a cancelled unary call (wrapped handler)', async (t) => {
  const s = await startEchoServer(defaultConfig(), (server) => {
    server.addService(chatService, {
      Chat: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
        call.on('data', (b: Buffer) => call.write(b));
        call.on('end', () => call.end());
      },
      Hang: () => { /* never answers: the client cancels */ },
    });
  });
  const Client = grpc.makeGenericClientConstructor(chatService, 'Chat');
  const client = new Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(async () => { client.close(); await s.server.shutdown({ deadlineMs: 1000 }); });

  const stream = client.makeBidiStreamRequest(CHAT_PATH, identity, identity);
  const got: string[] = [];
  const ended = new Promise<void>((resolve, reject) => { stream.on('data', (b: Buffer) => got.push(b.toString())); stream.on('end', resolve); stream.on('error', reject); });
  for (const m of ['a', 'b', 'c']) stream.write(Buffer.from(m));
  stream.end();
  await ended;
  assert.deepEqual(got, ['a', 'b', 'c']);

  const hung = client.makeUnaryRequest(HANG_PATH, identity, identity, Buffer.from('x'), () => { /* cancelled */ });
  await new Promise((r) => setTimeout(r, 100));
  hung.cancel();

  const chat = 'grpc_type="bidi_stream",grpc_service="sluice.test.chat.v1.Chat",grpc_method="Chat"';
  const hang = 'grpc_type="unary",grpc_service="sluice.test.chat.v1.Chat",grpc_method="Hang"';
  let text = '';
  for (let i = 0; i < 50 && !text.includes(`${hang},grpc_code="Canceled"`); i++) {
    await new Promise((r) => setTimeout(r, 20));
    text = await s.registry.metrics();
  }
  assert.match(text, new RegExp(`grpcserver_started_total\\{${chat}\\} 1`));
  assert.match(text, new RegExp(`grpcserver_msg_received_total\\{${chat}\\} 3`));
  assert.match(text, new RegExp(`grpcserver_msg_sent_total\\{${chat}\\} 3`));
  assert.match(text, new RegExp(`grpcserver_handled_total\\{${chat},grpc_code="OK"\\} 1`));
  assert.match(text, new RegExp(`grpcserver_handled_total\\{${hang},grpc_code="Canceled"\\} 1`));
  assert.doesNotMatch(text, new RegExp(`grpcserver_msg_sent_total\\{${hang}\\} [1-9]`), 'a cancelled call sent nothing');
});
