import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_EVENT_MESSAGE_LENGTH, MAX_EVENT_NAME_LENGTH, eventMessage, eventName } from './event-name.js';

const SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

test('an Event name stays a DNS-1123 subdomain of at most 253 characters for any object name', () => {
  assert.equal(eventName('p', '18c0a1b2c3d'), 'p.18c0a1b2c3d');
  for (const name of ['a'.repeat(253), `${'a'.repeat(240)}.${'b'.repeat(12)}`, `${'a'.repeat(239)}-.-bbbbbbbbbbbbbb`, 'x'.repeat(250)]) {
    const n = eventName(name, '18c0a1b2c3d4e');
    assert.ok(n.length <= MAX_EVENT_NAME_LENGTH, `${n.length}`);
    assert.match(n, SUBDOMAIN);
    assert.ok(n.endsWith('.18c0a1b2c3d4e'));
    assert.ok(name.startsWith(n.slice(0, n.length - '.18c0a1b2c3d4e'.length)));
  }
});

test('an Event message is cut to the bound, saying how long it was', () => {
  assert.equal(eventMessage('short'), 'short');
  const cut = eventMessage(`policy failed: ${'s'.repeat(20_000)}`);
  assert.ok(cut.length <= MAX_EVENT_MESSAGE_LENGTH);
  assert.match(cut, /… \(20015 characters in all\)$/);
});
