import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isNormalTarget, normalizeRequestTarget, type RequestTarget } from './http-path.js';

const MERGE = { mergeSlashes: true };
const KEEP = { mergeSlashes: false };

function target(r: RequestTarget): string {
  assert.ok(r.ok, `refused: ${r.ok ? '' : r.reason}`);
  return r.target;
}

test('paths that reach /admin by another spelling all normalize to it', () => {
  for (const t of ['/admin/users', '//admin/users', '/./admin/users', '/x/../admin/users', '/%61dmin/users', '/%61%64%6D%69%6e/users',
    '/admin/./users', '/admin//users', '/x/y/../../admin/users', '/%2e/admin/users', '/x/%2E%2E/admin/users', '///admin///users']) {
    assert.equal(target(normalizeRequestTarget(t, MERGE)), '/admin/users', t);
  }
});

test('absolute-form becomes origin-form and gives its host', () => {
  assert.deepEqual(normalizeRequestTarget('http://api/admin/users', MERGE), { ok: true, target: '/admin/users', host: 'api' });
  assert.deepEqual(normalizeRequestTarget('HTTPS://api.example:8443/a/../b?x=1', MERGE), { ok: true, target: '/b?x=1', host: 'api.example:8443' });
  assert.deepEqual(normalizeRequestTarget('http://api', MERGE), { ok: true, target: '/', host: 'api' });
  assert.deepEqual(normalizeRequestTarget('http://api?q', MERGE), { ok: true, target: '/?q', host: 'api' });
  assert.deepEqual(normalizeRequestTarget('http://[::1]:80/x', MERGE), { ok: true, target: '/x', host: '[::1]:80' });
});

test('escapes: unreserved decoded, the rest upper-cased; the query is kept', () => {
  assert.equal(target(normalizeRequestTarget('/a%7eb%2dc%5f%2E', MERGE)), '/a~b-c_.');
  assert.equal(target(normalizeRequestTarget('/a%3ab%20c%e2%82%ac', MERGE)), '/a%3Ab%20c%E2%82%AC');
  assert.equal(target(normalizeRequestTarget('/a/./b?x=/../%2f&y=%61', MERGE)), '/a/b?x=/../%2f&y=%61');
});

test('dot segments as RFC 3986 §5.2.4 removes them; trailing slashes kept', () => {
  const cases: [string, string][] = [
    ['/a/b/c/./../../g', '/a/g'], ['/a/b/..', '/a/'], ['/a/b/.', '/a/b/'], ['/a/..', '/'], ['/.', '/'], ['/a/', '/a/'],
    ['/.well-known/x', '/.well-known/x'], ['/a/..b/c.', '/a/..b/c.'], ['/a/...', '/a/...'],
  ];
  for (const [input, want] of cases) assert.equal(target(normalizeRequestTarget(input, MERGE)), want, input);
});

test('slash merging is optional', () => {
  assert.equal(target(normalizeRequestTarget('//admin//users/', KEEP)), '//admin//users/');
  assert.equal(target(normalizeRequestTarget('//admin//users/', MERGE)), '/admin/users/');
  assert.equal(target(normalizeRequestTarget('//a/./b', KEEP)), '//a/b');
  assert.equal(target(normalizeRequestTarget('/', MERGE)), '/');
  assert.equal(target(normalizeRequestTarget('//', MERGE)), '/');
});

test('ambiguous or malformed targets are refused with a reason', () => {
  const cases: [string, RegExp][] = [
    ['/admin%2Fusers', /%2F/], ['/admin%2fusers', /%2F/], ['/admin%5cusers', /%5C/], ['/admin\\users', /"\\"/],
    ['/admin%00', /NUL/], ['/admin\u0000x', /control/], ['/a\tb', /control/], ['/../admin', /above the root/],
    ['/a/../../admin', /above the root/], ['/%2e%2e/admin', /above the root/], ['/a%zz', /malformed/], ['/a%4', /malformed/], ['/a%', /malformed/],
    ['/a#frag', /fragment/], ['/a?x#frag', /fragment/], ['/a?x\u0001', /control/], ['admin', /neither/], ['', /neither/],
    ['ftp://api/admin', /scheme/], ['http://user@api/admin', /user information/], ['http:///admin', /no host/], ['api:80', /neither/],
  ];
  for (const [input, reason] of cases) {
    const r = normalizeRequestTarget(input, MERGE);
    assert.equal(r.ok, false, JSON.stringify(input));
    if (!r.ok) assert.match(r.reason, reason, JSON.stringify(input));
  }
});

test('an already normal target comes back as the same string after the fast scan', () => {
  for (const t of ['/admin/users', '/a-b_c~d/e.json?x=%2F&y=..', '/', '/v1/orders/123']) {
    assert.equal(isNormalTarget(t, true), true, t);
    const r = normalizeRequestTarget(t, MERGE);
    assert.ok(r.ok);
    assert.equal(r.target, t);
    assert.equal(r.host, undefined);
  }
  for (const t of ['//a', '/a/.', '/%61', '/a\\b', 'http://x/', '*', '/a#b']) assert.equal(isNormalTarget(t, true), false, t);
  assert.equal(isNormalTarget('//a', false), true);
  assert.deepEqual(normalizeRequestTarget('*', MERGE), { ok: true, target: '*', host: undefined });
});

test('normalizing is idempotent', () => {
  for (const t of ['/x/../%61dmin//u/./', '/a%3ab/%7E/', 'http://h/a/b/../c?z']) {
    const once = target(normalizeRequestTarget(t, MERGE));
    assert.equal(target(normalizeRequestTarget(once, MERGE)), once);
    assert.equal(isNormalTarget(once, true) || once.includes('%'), true);
  }
});
