import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startCannedAgent } from '../testing/canned-agent.js';
import { checkRequest } from '../testing/check-request.js';
import { CheckHttpClient } from './client.js';

const request = checkRequest;

test('after UNIMPLEMENTED the client goes unary, and tries the stream again once the probe interval is over', async (t) => {
  const old = await startCannedAgent(undefined, { unaryOnly: true });
  const port = Number(old.address.split(':')[1]);
  const client = new CheckHttpClient(old.address, { streamProbeMs: 300 });
  t.after(() => client.shutdown());
  assert.equal(client.path(), 'stream');
  assert.equal((await client.check(request('/a'), 2000)).kind, 'answer');
  assert.equal(client.path(), 'unary');
  assert.equal((await client.check(request('/b'), 2000)).kind, 'answer');
  assert.equal(old.calls.unary, 2);
  await old.close();
  const current = await startCannedAgent(undefined, { port });
  t.after(() => current.close());
  await sleep(350);
  assert.equal(client.path(), 'stream');
  let outcome = await client.check(request('/c'), 2000);
  // The channel may still be reconnecting to the new server: give it a few tries.
  for (let i = 0; i < 30 && (outcome.kind !== 'answer' || current.calls.streamed === 0); i++) {
    await sleep(100);
    outcome = await client.check(request('/c'), 2000);
  }
  assert.equal(outcome.kind, 'answer');
  assert.ok(current.calls.streamed >= 1, 'checks go on the stream again');
  assert.equal(current.calls.streams >= 1, true);
});

test('a check waiting on the stream when the client closes fails at once as unavailable', async (t) => {
  const agent = await startCannedAgent(() => ({ response: { ok_response: { headers: [] } }, delayMs: 5000 }));
  t.after(() => agent.close());
  const client = new CheckHttpClient(agent.address);
  const started = Date.now();
  const pending = client.check(request('/held'), 4000);
  while (agent.requests.length < 1) await sleep(5);
  client.shutdown();
  const outcome = await pending;
  assert.equal(outcome.kind, 'failed');
  assert.equal(outcome.kind === 'failed' ? outcome.reason : '', 'unavailable');
  assert.ok(Date.now() - started < 2000);
  assert.equal(client.path(), 'unary', 'a closed client opens no stream');
});

test('a late answer after the check timeout is dropped; the next check on the same stream is answered', async (t) => {
  let delay = 300;
  const agent = await startCannedAgent(() => ({ response: { ok_response: { headers: [{ key: 'n', value: String(delay) }] } }, delayMs: delay }));
  t.after(() => agent.close());
  const client = new CheckHttpClient(agent.address);
  t.after(() => client.shutdown());
  assert.equal((await client.check(request('/warm'), 2000)).kind, 'answer');
  const late = await client.check(request('/late'), 100);
  assert.deepEqual(late.kind === 'failed' ? late.reason : late.kind, 'deadline');
  delay = 0;
  await sleep(300); // the late answer arrives meanwhile, for an id nobody waits on
  const next = await client.check(request('/next'), 2000);
  assert.equal(next.kind, 'answer');
  assert.deepEqual(next.kind === 'answer' ? next.response.ok_response?.headers : [], [{ key: 'n', value: '0' }]);
  assert.equal(agent.calls.streams, 1);
});

test('checks with different timeouts on one stream each fail at their own deadline, answered ones are unaffected', async (t) => {
  const agent = await startCannedAgent((r) => ({ response: { ok_response: { headers: [] } }, delayMs: r.request.path === '/fast' ? 0 : 5000 }));
  t.after(() => agent.close());
  const client = new CheckHttpClient(agent.address);
  t.after(() => client.shutdown());
  assert.equal((await client.check(request('/fast'), 2000)).kind, 'answer');
  const started = Date.now();
  const settled = (p: Promise<unknown>): Promise<number> => p.then(() => Date.now() - started);
  const long = settled(client.check(request('/slow-long'), 900));
  const short = settled(client.check(request('/slow-short'), 150));
  const fast = client.check(request('/fast'), 2000);
  assert.equal((await fast).kind, 'answer');
  const [shortMs, longMs] = await Promise.all([short, long]);
  assert.ok(shortMs >= 140 && shortMs < 600, `the short check settled after ${shortMs} ms`);
  assert.ok(longMs >= 880 && longMs < 1800, `the long check settled after ${longMs} ms`);
});
