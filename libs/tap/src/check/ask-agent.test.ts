import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IncomingMessage } from 'node:http';
import { Registry } from 'prom-client';
import { silentLogger } from '../logger.js';
import { createTapMetrics } from '../metrics.js';
import { askAgent, type AskContext } from './ask-agent.js';
import { InterestFilter } from './interest-filter.js';
import type { CheckHTTPRequest } from './types.js';

/** Just what checkRequestOf reads of an incoming request. */
function fakeRequest(): IncomingMessage {
  return {
    method: 'POST', url: '/a', httpVersion: '1.1',
    headers: { host: 'h', 'content-type': 'application/json', 'content-length': '9' },
    rawHeaders: ['Host', 'h', 'Content-Type', 'application/json', 'Content-Length', '9', 'X-User', 'u'],
    socket: { remoteAddress: '127.0.0.1', remotePort: 1, localAddress: '127.0.0.1', localPort: 2, encrypted: undefined },
  } as unknown as IncomingMessage;
}

function context(sent: CheckHTTPRequest[]): AskContext {
  return {
    checker: { check: (request) => { sent.push(request); return Promise.resolve({ kind: 'answer', response: { ok_response: { headers: [] }, check_response: null, flow_id: '', header_interest: null } }); } },
    controlPoint: 'ingress', checkTimeoutMs: 1000, failClosed: false, metrics: createTapMetrics(new Registry()), logger: silentLogger,
  };
}

test('a body the caller did not read is read before the ask when the interest has come to want it', async () => {
  const sent: CheckHTTPRequest[] = [];
  const ctx = context(sent);
  ctx.interest = new InterestFilter();
  ctx.interest.update({ generation: 6, all: false, headers: ['x_user'], body: true }, false);
  let reads = 0;
  const verdict = await askAgent(ctx, fakeRequest(), { text: '', truncated: true }, () => { reads++; return Promise.resolve({ text: '{"a":1}', truncated: false }); });
  assert.equal(verdict.kind, 'ok');
  assert.equal(reads, 1);
  assert.equal(sent.length, 1);
  assert.equal(sent[0].interest_generation, 6);
  assert.equal(sent[0].request.body, '{"a":1}');
  assert.deepEqual(Object.keys(sent[0].request.headers), ['x-user']);
});

test('a body the interest does not want is neither read nor sent', async () => {
  const sent: CheckHTTPRequest[] = [];
  const ctx = context(sent);
  ctx.interest = new InterestFilter();
  ctx.interest.update({ generation: 6, all: false, headers: [], body: false }, false);
  let reads = 0;
  await askAgent(ctx, fakeRequest(), { text: '', truncated: true }, () => { reads++; return Promise.resolve({ text: '{"a":1}', truncated: false }); });
  assert.equal(reads, 0);
  assert.equal(sent[0].request.body, '');
  assert.deepEqual(sent[0].request.headers, {});
});
