import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RaisedAlert } from '@sluice/policies';
import { AlertBook, alertLabels, type PostableAlert } from './alert-book.js';

const overload: RaisedAlert = {
  name: 'Overloaded', severity: 'warn', resolveTimeoutMs: 5000, channels: ['pager'],
  labels: { policy_name: 'svc', component_id: 'root.1', type: 'alerter', team: 'edge' },
};

/** A book on a clock the test moves, and every alert it sends. */
function fixture() {
  let now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const sent: [string, PostableAlert][] = [];
  const book = new AlertBook({ now: () => now, send: (key, a) => sent.push([key, a]), host: 'ctl' });
  return { book, sent, advance: (ms: number) => { now += ms; }, at: (ms: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, 0) + ms).toISOString() };
}

test('the labels Alertmanager sees: the alerter\'s, alertname, severity, alert_channels (none when there are no channels)', () => {
  assert.deepEqual(alertLabels(overload), { policy_name: 'svc', component_id: 'root.1', type: 'alerter', team: 'edge', alertname: 'Overloaded', severity: 'warn', alert_channels: 'pager' });
  assert.equal('alert_channels' in alertLabels({ ...overload, channels: [] }), false);
  assert.equal(alertLabels({ ...overload, channels: ['a', 'b'] }).alert_channels, 'a,b');
});

test('an alert is active from its first raise until the resolve timeout after its last one, then resolves once', () => {
  const { book, sent, advance, at } = fixture();
  book.raise(overload);
  assert.equal(book.list().length, 1);
  assert.deepEqual(sent.at(-1)?.[1], {
    labels: alertLabels(overload), annotations: {}, startsAt: at(0), endsAt: at(5000), generatorURL: 'http://ctl/svc/Overloaded',
  });
  advance(3000);
  book.raise(overload); // raised again: the same alert, its end moves on
  assert.equal(book.size, 1);
  assert.equal(sent.at(-1)?.[1].startsAt, at(0), 'still the alert that started first');
  assert.equal(sent.at(-1)?.[1].endsAt, at(8000));
  assert.equal(sent[0][0], sent[1][0], 'sent under the same key (a newer state replaces a pending one)');
  advance(4999);
  assert.equal(book.sweep(), 0, 'not before its end');
  assert.equal(book.list().length, 1);
  const before = sent.length;
  advance(1);
  assert.deepEqual(book.list(), [], 'resolved at its end');
  assert.equal(sent.length, before + 1, 'the resolution is sent once');
  assert.equal(sent.at(-1)?.[1].endsAt, at(8000));
  assert.equal(book.sweep(), 0);
  assert.equal(sent.length, before + 1, 'and not again');
});

test('raised again after it resolved, an alert starts anew', () => {
  const { book, sent, advance, at } = fixture();
  book.raise(overload);
  advance(6000); // past its end, not swept yet
  book.raise(overload);
  const resolution = sent[1][1];
  assert.equal(resolution.startsAt, at(0));
  assert.equal(resolution.endsAt, at(5000), 'the old one is sent resolved first');
  assert.equal(sent[2][1].startsAt, at(6000), 'then the new one');
  assert.equal(book.list()[0].startsAt, at(6000));
});

test('alerts differing in any label are separate; the list is oldest first', () => {
  const { book, advance } = fixture();
  book.raise(overload);
  advance(10);
  book.raise({ ...overload, severity: 'crit' });
  advance(10);
  book.raise({ ...overload, labels: { ...overload.labels, policy_name: 'other' } });
  book.raise(overload);
  const list = book.list();
  assert.equal(list.length, 3);
  assert.deepEqual(list.map((a) => [a.labels.policy_name, a.labels.severity]), [['svc', 'warn'], ['svc', 'crit'], ['other', 'warn']]);
});

test('a longer resolve timeout of a later raise is kept; a shorter one does not cut the alert short', () => {
  const { book, advance, at } = fixture();
  book.raise({ ...overload, resolveTimeoutMs: 10_000 });
  advance(1000);
  book.raise(overload);
  assert.equal(book.list()[0].endsAt, at(10_000));
});

test('names that need escaping stay inside the generator URL\'s path segments', () => {
  const { book } = fixture();
  book.raise({ ...overload, name: 'a/b c', labels: { ...overload.labels, policy_name: 'p?x' } });
  assert.equal(book.list()[0].generatorURL, 'http://ctl/p%3Fx/a%2Fb%20c');
});
