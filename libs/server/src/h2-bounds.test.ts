import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { EMPTY_SETTINGS, FLAG_END_HEADERS, FrameType } from './h2-prelude.js';
import { CLIENT_PREFACE, RawH2Client, echoCall, frame, headerBlock, grpcFields } from './h2-test-frames.js';
import { HTTP2_PREFACE } from './protocol-router.js';
import { rawExchange } from './socket-support.js';
import { EchoClient, callEcho, defaultConfig, startEchoServer, type Started } from './test-support.js';

type T = { after: (fn: () => void | Promise<void>) => void };

async function start(t: T, connectionTimeout: string): Promise<Started & { reasons: string[] }> {
  const reasons: string[] = [];
  const s = await startEchoServer(defaultConfig({ grpc: { connection_timeout: connectionTimeout } }), undefined, {
    debug: (message: string, fields?: Record<string, unknown>) => { if (typeof fields?.reason === 'string') reasons.push(fields.reason); },
  });
  t.after(() => s.server.shutdown({ deadlineMs: 1000 }));
  return { ...s, reasons };
}

async function stillServing(s: Started, t: T): Promise<void> {
  assert.equal((await fetch(`${s.base}/hello`)).status, 200);
  const client = new EchoClient(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
  t.after(() => client.close());
  assert.equal((await callEcho(client, { message: 'still' })).message, 'still');
}

test('a preface and then nothing, or a client that never acknowledges our SETTINGS, is cut at the connection timeout', async (t) => {
  const s = await start(t, '300ms');
  const [silent, unacknowledged] = await Promise.all([rawExchange(s.port, HTTP2_PREFACE, 4000), rawExchange(s.port, CLIENT_PREFACE, 4000)]);
  assert.equal(silent.closed, true);
  assert.ok(silent.elapsedMs >= 250 && silent.elapsedMs < 3000, `lived ${silent.elapsedMs} ms`);
  assert.equal(silent.text, '', 'no SETTINGS before the client sent its own');
  assert.equal(unacknowledged.closed, true);
  assert.ok(unacknowledged.elapsedMs < 3000, `lived ${unacknowledged.elapsedMs} ms`);
  assert.equal(unacknowledged.text, EMPTY_SETTINGS.toString('latin1'), 'only our server preface was sent');
  assert.ok(s.reasons.some((r) => /no request within/.test(r)), s.reasons.join('; '));
  await stillServing(s, t);
});

test('a client idle after the SETTINGS exchange is not cut at the connection timeout: it goes to gRPC', async (t) => {
  const s = await start(t, '300ms');
  const c = await RawH2Client.connect(s.port);
  t.after(() => c.destroy());
  c.write(CLIENT_PREFACE);
  const isSettings = (f: { type: number; flags: number }): boolean => f.type === FrameType.SETTINGS && (f.flags & 1) === 0;
  const ours = await c.waitFor(isSettings);
  assert.ok(ours !== undefined);
  assert.ok(await c.waitFor((f) => isSettings(f) && f !== ours, 900), 'gRPC took it by the 300 ms timeout, before the 1 s idle bound');
  await new Promise((r) => setTimeout(r, 400));
  assert.equal(c.closed, false);
  c.write(echoCall(1, 'patient'));
  assert.ok(await c.waitFor((f) => f.stream === 1 && f.type === FrameType.HEADERS && (f.flags & 1) !== 0));
});

test('a header block over the 64 KiB bound is cut at once, long before the timeout', async (t) => {
  const s = await start(t, '120s');
  const c = await RawH2Client.connect(s.port);
  t.after(() => c.destroy());
  const started = Date.now();
  c.write(Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, 0, 1, headerBlock(grpcFields()))]));
  for (let i = 0; i < 5; i++) c.write(frame(FrameType.CONTINUATION, 0, 1, Buffer.alloc(16_000, 0x40)));
  assert.equal(await c.waitClosed(5000), true);
  assert.ok(Date.now() - started < 5000);
  assert.ok(s.reasons.some((r) => /more than 65536 bytes/.test(r)), s.reasons.join('; '));
  await stillServing(s, t);
});

test('garbage after the preface, and requests that do not decode, are cut without harm', async (t) => {
  const s = await start(t, '120s');
  const garbage = Buffer.alloc(2000);
  for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 256;
  const answers = await Promise.all([
    rawExchange(s.port, Buffer.concat([HTTP2_PREFACE, garbage]), 4000),
    rawExchange(s.port, Buffer.concat([CLIENT_PREFACE, frame(FrameType.DATA, 0, 1, Buffer.from('early'))]), 4000),
    rawExchange(s.port, Buffer.concat([CLIENT_PREFACE, frame(FrameType.HEADERS, FLAG_END_HEADERS, 1, Buffer.from([0xbf, 0x00]))]), 4000),
  ]);
  for (const [i, a] of answers.entries()) {
    assert.equal(a.closed, true, `case ${i}`);
    assert.ok(a.elapsedMs < 3000, `case ${i} lived ${a.elapsedMs} ms`);
  }
  assert.equal(s.reasons.length, 3, s.reasons.join('; '));
  await stillServing(s, t);
});
