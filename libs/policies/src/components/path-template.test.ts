import assert from 'node:assert/strict';
import { test } from 'node:test';
import { matchesPathTemplate, orderPathTemplates, parsePathTemplate, pathSegments, type PathTemplate } from './path-template.js';

function parsed(text: string): PathTemplate {
  const t = parsePathTemplate(text);
  assert.ok(typeof t !== 'string', `${text}: ${String(t)}`);
  return t;
}

test('path templates parse; empty segments are ignored; bad ones say why', () => {
  assert.deepEqual(parsed('/user/{id}'), { prefix: ['user'], params: 1, wildcard: false });
  assert.deepEqual(parsed('//static///*'), { prefix: ['static'], params: 0, wildcard: true });
  assert.deepEqual(parsed('/'), { prefix: [], params: 0, wildcard: false });
  assert.deepEqual(parsed('/a/{}/{x}/'), { prefix: ['a'], params: 2, wildcard: false });
  assert.match(String(parsePathTemplate('/a/*/b')), /last segment/);
  assert.match(String(parsePathTemplate('/{id}/a')), /after the static segments/);
  assert.match(String(parsePathTemplate('/a{id}')), /whole segment/);
  assert.match(String(parsePathTemplate('/{a}}')), /whole segment/);
});

test('paths match by segments, the query and empty segments ignored', () => {
  assert.deepEqual(pathSegments('/a//b/?x=/c'), ['a', 'b']);
  assert.deepEqual(pathSegments('/'), []);
  assert.equal(matchesPathTemplate(parsed('/user/{id}'), pathSegments('/user/42?x=1')), true);
  assert.equal(matchesPathTemplate(parsed('/user/{id}'), pathSegments('/user')), false);
  assert.equal(matchesPathTemplate(parsed('/user/{id}'), pathSegments('/user/42/orders')), false);
  assert.equal(matchesPathTemplate(parsed('/static/*'), pathSegments('/static')), true, '* is 0 or more');
  assert.equal(matchesPathTemplate(parsed('/static/*'), pathSegments('/static/a/b.css')), true);
  assert.equal(matchesPathTemplate(parsed('/static/*'), pathSegments('/other/a')), false);
  assert.equal(matchesPathTemplate(parsed('/'), pathSegments('/')), true);
  assert.equal(matchesPathTemplate(parsed('/*'), pathSegments('/anything/at/all')), true);
});

test('the most specific template is tried first: static segments, then parameters, then no wildcard', () => {
  const entries = ['/*', '/{}', '/foo', '/foo/*', '/foo/{}', '/{}/{}', '/bar'].map((t) => ({ text: t, template: parsed(t) }));
  assert.deepEqual(orderPathTemplates(entries).map((e) => e.text), ['/foo/{}', '/bar', '/foo', '/foo/*', '/{}/{}', '/{}', '/*']);
});
