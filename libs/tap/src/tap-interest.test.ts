import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IncomingHttpHeaders } from 'node:http';
import type { CannedAnswer } from './testing/canned-agent.js';
import { send, startTestAgent, startTestTap, startUpstream } from './testing/fixture.js';
import type { CheckHTTPRequest } from './check/types.js';

const OK = { ok_response: { headers: [] } };
const HEADERS = { 'x-user': 'alice', 'x-other': 'o', 'content-type': 'application/json' };
const BODY = '{"user":"alice"}';

function interest(generation: number, headers: string[], body = false): { generation: number; all: boolean; headers: string[]; body: boolean } {
  return { generation, all: false, headers, body };
}

async function setup(t: import('node:test').TestContext, answer: (r: CheckHTTPRequest) => CannedAnswer) {
  const seen: { headers: IncomingHttpHeaders; body: string }[] = [];
  const upstream = await startUpstream(t, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.end('through');
    });
  });
  const agent = await startTestAgent(t, answer);
  const { base } = await startTestTap(t, upstream, agent.address);
  return { seen, agent, base };
}

test('the tap sends every header until the agent names its interest, then only those (no body); the workload sees everything', async (t) => {
  const { seen, agent, base } = await setup(t, (r) => (r.interest_generation === 7 ? { response: OK } : { response: { ...OK, header_interest: interest(7, ['x_user', 'baggage']) } }));
  for (let i = 0; i < 3; i++) assert.equal((await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY })).status, 200);
  const [first, ...rest] = agent.requests;
  assert.equal(first.interest_generation, 0);
  assert.equal(first.request.headers['x-other'], 'o');
  assert.equal(first.request.body, BODY);
  for (const r of rest) {
    assert.equal(r.interest_generation, 7);
    assert.deepEqual(Object.keys(r.request.headers), ['x-user']);
    assert.equal(r.request.body, '', 'the body is neither read nor sent');
    assert.equal(r.request.method, 'POST', 'the request fields are always sent');
    assert.equal(r.request.path, '/a');
  }
  for (const s of seen) {
    assert.equal(s.headers['x-other'], 'o');
    assert.equal(s.body, BODY);
  }
});

test('an agent that answers no interest (older) gets every header and the body, always under generation 0', async (t) => {
  const { agent, base } = await setup(t, () => ({ response: OK }));
  for (let i = 0; i < 2; i++) await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY });
  for (const r of agent.requests) {
    assert.equal(r.interest_generation, 0);
    assert.equal(r.request.headers['x-other'], 'o');
    assert.equal(r.request.body, BODY);
  }
});

test('resend_unfiltered: the tap asks again at once with every header and the body, and follows the new interest', async (t) => {
  let current = interest(7, ['x_user']);
  const { seen, agent, base } = await setup(t, (r) => {
    const g = r.interest_generation ?? 0;
    if (g !== 0 && g !== current.generation) return { response: { header_interest: current, resend_unfiltered: true } };
    const deny = r.request.headers['x-other'] === 'o' && current.generation === 8;
    const decided = deny ? { http_response: 'denied_response' as const, denied_response: { status: 429, headers: [], body: 'limited' } } : OK;
    return { response: g === current.generation ? decided : { ...decided, header_interest: current } };
  });
  assert.equal((await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY })).status, 200);
  assert.equal((await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY })).status, 200);
  assert.equal(agent.requests[1]?.interest_generation, 7);
  current = interest(8, ['x_other'], true);
  const denied = await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY });
  assert.equal(denied.status, 429, 'decided on the unfiltered ask, which carries the header that matters now');
  assert.equal(agent.requests.length, 4);
  const [, , stale, again] = agent.requests;
  assert.equal(stale.interest_generation, 7);
  assert.equal(again.interest_generation, 0);
  assert.equal(again.request.headers['x-other'], 'o');
  assert.equal(again.request.body, BODY, 'the body is read for the second ask');
  assert.equal((await send(`${base}/b`, { method: 'POST', headers: HEADERS, body: BODY })).status, 429);
  const last = agent.requests[4];
  assert.equal(last.interest_generation, 8);
  assert.deepEqual(Object.keys(last.request.headers), ['x-other']);
  assert.equal(last.request.body, BODY, 'the new interest wants the body');
  assert.equal(seen.length, 2, 'the denied requests never reached the workload');
  assert.equal(seen[1].body, BODY);
});

test('an interest of everything (a preview runs) sends every header and the body', async (t) => {
  const { agent, base } = await setup(t, (r) => (r.interest_generation === 9 ? { response: OK } : { response: { ...OK, header_interest: { generation: 9, all: true, headers: [], body: true } } }));
  for (let i = 0; i < 2; i++) await send(`${base}/a`, { method: 'POST', headers: HEADERS, body: BODY });
  const r = agent.requests[1];
  assert.equal(r.interest_generation, 9);
  assert.equal(r.request.headers['x-other'], 'o');
  assert.equal(r.request.body, BODY);
});
