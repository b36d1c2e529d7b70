import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeError, informerKey } from './shared-informer.js';

test('describeError keeps the code and the Status message, and says what a 404 means', () => {
  const body = JSON.stringify({ kind: 'Status', message: 'policies is forbidden: User "x" cannot list', code: 403 });
  assert.equal(describeError({ code: 403, body, message: 'HTTP-Code: 403\nMessage: ...\nHeaders: {...}' }, '/p'), 'HTTP 403: policies is forbidden: User "x" cannot list');
  assert.equal(describeError({ code: 404, body: { message: 'the server could not find the requested resource' } }, '/apis/x/v1/ws'), 'HTTP 404: /apis/x/v1/ws is not served (is its CustomResourceDefinition installed?): the server could not find the requested resource');
  assert.equal(describeError({ statusCode: 410 }, '/p'), 'HTTP 410');
  assert.equal(describeError({ code: 500, body: 'plain text' }, '/p'), 'HTTP 500: plain text');
  assert.equal(describeError(new Error('connect ECONNREFUSED 127.0.0.1:1'), '/p'), 'connect ECONNREFUSED 127.0.0.1:1');
  assert.equal(describeError('odd', '/p'), 'odd');
  assert.equal(describeError(undefined, '/p'), 'undefined');
});

test('informers are keyed by path and selectors', () => {
  assert.equal(informerKey({ path: '/a' }), informerKey({ path: '/a', labelSelector: undefined }));
  assert.notEqual(informerKey({ path: '/a', labelSelector: 'x=1' }), informerKey({ path: '/a', fieldSelector: 'x=1' }));
});
