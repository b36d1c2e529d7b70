import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCannedAgent } from '../testing/canned-agent.js';
import { endWithStatus, okAnswerFrame, startRawAgent } from '../testing/raw-agent.js';
import { frameOf } from './grpc-frames.js';
import { MAX_BUFFERED_BYTES } from './check-stream.js';
import { checkRequest } from '../testing/check-request.js';
import { CheckHttpClient, type CheckOutcome } from './client.js';

const request = checkRequest;

function answerHeader(o: CheckOutcome): string | undefined {
  return o.kind === 'answer' ? o.response.ok_response?.headers[0]?.value : `failed:${o.reason}`;
}

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

test('answers cut across DATA frames and several answers in one frame are each matched to their check', async (t) => {
  const agent = await startRawAgent((call) => {
    if (call.ids.length < 3) return;
    const [a, b, c] = call.ids as [number, number, number];
    const first = okAnswerFrame(a, 'first');
    void (async () => {
      // The first answer a byte at a time, the last byte together with the other two answers.
      for (let i = 0; i < first.length - 1; i++) {
        call.stream.write(first.subarray(i, i + 1));
        await sleep(2);
      }
      call.stream.write(Buffer.concat([first.subarray(first.length - 1), okAnswerFrame(c, 'third'), okAnswerFrame(b, 'second')]));
    })();
  });
  const client = new CheckHttpClient(agent.address);
  t.after(async () => { client.shutdown(); await agent.close(); });
  const outcomes = await Promise.all(['/1', '/2', '/3'].map((p) => client.check(request(p), 5000)));
  assert.deepEqual(outcomes.map(answerHeader), ['first', 'second', 'third']);
  assert.equal(agent.calls.length, 1, 'one stream');
  const h = agent.calls[0]?.headers ?? {};
  assert.equal(h['content-type'], 'application/grpc');
  assert.equal(h.te, 'trailers');
  assert.equal(h[':path'], '/sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP/CheckHTTPStream');
  assert.deepEqual(agent.calls[0]?.paths, ['/1', '/2', '/3'], 'the requests were encoded from the .proto type and read back');
});

for (const [code, reason] of [[8, 'error'], [14, 'unavailable'], [4, 'deadline']] as const) {
  test(`a stream that ends with grpc-status ${code} fails its waiting checks as ${reason}; later checks are still asked`, async (t) => {
    let streams = 0;
    const agent = await startRawAgent((call) => {
      if (call.headers[':path']?.toString().endsWith('CheckHTTP') === true) {
        // Unary answers (while the stream backs off) are CheckHTTPResponse.
        endWithStatus(call, 14, 'no unary here');
        return;
      }
      if (call.ids.length === 1) streams++;
      if (call.ids.length === 2) endWithStatus(call, code, 'going: 100% sure');
    });
    const client = new CheckHttpClient(agent.address, { backoff: { base_delay: '10ms', max_delay: '20ms' } });
    t.after(async () => { client.shutdown(); await agent.close(); });
    const outcomes = await Promise.all([client.check(request('/a'), 5000), client.check(request('/b'), 5000)]);
    assert.deepEqual(outcomes.map(answerHeader), [`failed:${reason}`, `failed:${reason}`]);
    assert.match(outcomes[0]?.kind === 'failed' ? outcomes[0].error.message : '', /going: 100% sure/, 'grpc-message is percent-decoded');
    await sleep(60);
    void client.check(request('/c'), 5000);
    await until('a second stream', () => streams === 2);
  });
}

test('the agent restarting mid-stream: waiting checks fail open at once, checks meanwhile fail fast, then answered again', async (t) => {
  const first = await startCannedAgent((r) => ({ response: { ok_response: { headers: [{ key: 'n', value: 'one' }] } }, delayMs: r.request.path === '/held' ? 10_000 : 0 }));
  const port = Number(first.address.split(':')[1]);
  const client = new CheckHttpClient(first.address, { connection: { backoff: { base_delay: '50ms', max_delay: '200ms' } }, backoff: { base_delay: '50ms', max_delay: '200ms' } });
  t.after(() => client.shutdown());
  assert.equal(answerHeader(await client.check(request('/warm'), 2000)), 'one');
  const held = client.check(request('/held'), 8000);
  await until('the held check at the agent', () => first.requests.length === 2);
  const stoppedAt = Date.now();
  await first.close();
  assert.equal(answerHeader(await held), 'failed:unavailable');
  assert.ok(Date.now() - stoppedAt < 2000, 'not at its deadline');
  const down = await client.check(request('/down'), 8000);
  assert.equal(down.kind, 'failed', 'nobody to answer');
  assert.ok(Date.now() - stoppedAt < 4000, 'failed fast, not at its deadline');
  const second = await startCannedAgent(() => ({ response: { ok_response: { headers: [{ key: 'n', value: 'two' }] } } }), { port });
  t.after(() => second.close());
  let outcome = await client.check(request('/again'), 2000);
  for (let i = 0; i < 50 && (answerHeader(outcome) !== 'two' || second.calls.streamed === 0); i++) {
    await sleep(100);
    outcome = await client.check(request('/again'), 2000);
  }
  assert.equal(answerHeader(outcome), 'two');
  assert.ok(second.calls.streamed >= 1, 'checks go on a stream to the new agent again');
});

test('a unary check carries its deadline as grpc-timeout and fails as deadline when not answered in time', async (t) => {
  const agent = await startRawAgent(() => undefined, { refuseStream: true });
  const client = new CheckHttpClient(agent.address);
  t.after(async () => { client.shutdown(); await agent.close(); });
  const outcome = await client.check(request('/slow'), 300);
  assert.equal(answerHeader(outcome), 'failed:deadline');
  const unary = agent.calls.find((c) => c.headers[':path'] === '/sluice.flowcontrol.checkhttp.v1.FlowControlServiceHTTP/CheckHTTP');
  assert.ok(unary !== undefined, 'asked unary after UNIMPLEMENTED on the stream');
  const timeout = String(unary.headers['grpc-timeout']);
  assert.match(timeout, /^\d{1,8}m$/);
  assert.ok(Number.parseInt(timeout, 10) <= 300 && Number.parseInt(timeout, 10) > 0);
  assert.equal(client.path(), 'unary');
});

test('GOAWAY: the checks under way are answered on the old connection, new checks go on a new stream and connection', async (t) => {
  const held: Array<{ id: number; write: (b: Buffer) => void }> = [];
  const agent = await startRawAgent((call, id) => {
    if (call.paths.at(-1) === '/held') held.push({ id, write: (b) => call.stream.write(b) });
    else call.stream.write(okAnswerFrame(id, `stream-${agent.calls.indexOf(call)}`));
  });
  const client = new CheckHttpClient(agent.address, { connection: { keepaliveMs: 50 } });
  t.after(async () => { client.shutdown(); await agent.close(); });
  assert.equal(answerHeader(await client.check(request('/first'), 2000)), 'stream-0');
  const pending = client.check(request('/held'), 5000);
  await until('the held check', () => held.length === 1);
  let halfClosed = false;
  agent.calls[0]?.stream.on('end', () => { halfClosed = true; });
  agent.sessions[0]?.goaway();
  await until('the client to half-close the old stream', () => halfClosed);
  assert.equal(answerHeader(await client.check(request('/after'), 2000)), 'stream-1');
  assert.equal(agent.sessions.length, 2, 'a new connection');
  held[0]?.write(okAnswerFrame(held[0].id, 'late'));
  assert.equal(answerHeader(await pending), 'late', 'answered on the old stream');
});

test('the connection is PINGed while up', async (t) => {
  const agent = await startRawAgent((call, id) => call.stream.write(okAnswerFrame(id)));
  const client = new CheckHttpClient(agent.address, { connection: { keepaliveMs: 30 } });
  t.after(async () => { client.shutdown(); await agent.close(); });
  assert.equal(answerHeader(await client.check(request('/x'), 2000)), 'ok');
  let pings = 0;
  agent.sessions[0]?.on('ping', () => { pings++; });
  await until('two PINGs', () => pings >= 2);
  assert.equal(client.connectivity(), 'ready');
});

test('an agent that stops reading: once the checks queued behind flow control pass the bound, new checks fail open at once', async (t) => {
  const agent = await startRawAgent(() => undefined, { neverRead: true });
  const client = new CheckHttpClient(agent.address);
  t.after(async () => { client.shutdown(); await agent.close(); });
  const big = request('/big');
  big.request.body = 'x'.repeat(8192);
  const waiting: Array<Promise<CheckOutcome>> = [];
  // More than the window and the bound can hold.
  const count = Math.ceil((MAX_BUFFERED_BYTES + 1024 * 1024) / 8192);
  for (let i = 0; i < count; i++) waiting.push(client.check(big, 3000));
  await until('the stream to back up', () => agent.calls.length === 1);
  const started = Date.now();
  const refused = await client.check(big, 3000);
  assert.equal(answerHeader(refused), 'failed:unavailable');
  assert.ok(Date.now() - started < 1000, 'at once, not at the deadline');
  client.shutdown();
  const outcomes = await Promise.all(waiting);
  assert.ok(outcomes.some((o) => answerHeader(o) === 'failed:unavailable'), 'checks past the bound were not queued');
});

for (const [what, bytes] of [
  ['an answer that is not a CheckHTTPStreamResponse', frameOf(Buffer.from([0x0a, 0xff, 0xff]))],
  ['a compressed answer', Buffer.from([1, 0, 0, 0, 1, 0])],
  ['an answer longer than 4 MiB', Buffer.from([0, 0x7f, 0, 0, 0])],
] as const) {
  test(`${what} ends the stream: its checks fail open as error, the stream is opened again`, async (t) => {
    const agent = await startRawAgent((call, id) => {
      if (agent.calls.indexOf(call) === 0) call.stream.write(bytes);
      else if (!String(call.headers[':path']).endsWith('CheckHTTP')) call.stream.write(okAnswerFrame(id, 'again'));
    });
    const client = new CheckHttpClient(agent.address, { backoff: { base_delay: '10ms', max_delay: '20ms' } });
    t.after(async () => { client.shutdown(); await agent.close(); });
    assert.equal(answerHeader(await client.check(request('/bad'), 5000)), 'failed:error');
    await sleep(60);
    assert.equal(answerHeader(await client.check(request('/next'), 5000)), 'again');
  });
}
