import { test } from 'node:test';
import assert from 'node:assert/strict';
import { effectiveProxy, matchesNoProxy, proxyUrl, resolveProxy } from './resolve-proxy.js';

const none = { http: '', https: '', no_proxy: [] as string[] };

test('NO_PROXY matching table', () => {
  const cases: Array<[string, string[], boolean]> = [
    ['http://example.com/', ['*'], true],
    ['http://example.com/', ['example.com'], true],
    ['http://api.example.com/', ['example.com'], true],
    ['http://notexample.com/', ['example.com'], false],
    ['http://example.com/', ['.example.com'], false],
    ['http://api.example.com/', ['.example.com'], true],
    ['http://api.example.com/', ['*.example.com'], true],
    ['http://EXAMPLE.com/', ['Example.COM'], true],
    ['http://example.com:8080/', ['example.com:8080'], true],
    ['http://example.com:8081/', ['example.com:8080'], false],
    ['http://example.com/', ['example.com:80'], true],
    ['https://example.com/', ['example.com:80'], false],
    ['http://10.1.2.3/', ['10.0.0.0/8'], true],
    ['http://11.1.2.3/', ['10.0.0.0/8'], false],
    ['http://10.1.2.3/', ['10.1.2.3'], true],
    ['http://10.1.2.4/', ['10.1.2.3'], false],
    ['http://[::1]:9000/', ['::1'], true],
    ['http://[::1]:9000/', ['[::1]:9000'], true],
    ['http://[fd00::5]/', ['fd00::/8'], true],
    ['http://127.0.0.1/', ['fd00::/8'], false],
    ['http://127.0.0.1/', [], false],
    ['http://example.com/', [' ', 'other.org', 'example.com'], true],
  ];
  for (const [url, entries, want] of cases) assert.equal(matchesNoProxy(new URL(url), entries), want, `${url} vs ${JSON.stringify(entries)}`);
});

test('the scheme picks the proxy; no_proxy bypasses it', () => {
  const proxy = { http: 'http://p-http:3128', https: 'p-https:3129', no_proxy: ['internal.svc'] };
  assert.equal(resolveProxy('http://example.com/x', proxy, {})?.href, 'http://p-http:3128/');
  assert.equal(resolveProxy('https://example.com/x', proxy, {})?.href, 'http://p-https:3129/');
  assert.equal(resolveProxy('https://db.internal.svc/', proxy, {}), undefined);
  assert.equal(resolveProxy('ftp://example.com/', proxy, {}), undefined);
  assert.equal(resolveProxy('https://example.com/', { ...proxy, https: '' }, {}), undefined, 'https does not fall back to the http proxy');
});

test('client.proxy wins over the environment, which fills what it leaves empty', () => {
  const env = { HTTP_PROXY: 'http://env-http:1', https_proxy: 'http://env-https:2', NO_PROXY: 'example.com,10.0.0.0/8' };
  assert.equal(resolveProxy('http://a.org/', none, env)?.host, 'env-http:1');
  assert.equal(resolveProxy('https://a.org/', none, env)?.host, 'env-https:2');
  assert.equal(resolveProxy('http://example.com/', none, env), undefined);
  assert.equal(resolveProxy('http://10.9.9.9/', none, env), undefined);
  const config = { http: 'http://cfg:3', https: '', no_proxy: ['a.org'] };
  assert.equal(resolveProxy('http://b.org/', config, env)?.host, 'cfg:3');
  assert.equal(resolveProxy('http://a.org/', config, env), undefined, 'config no_proxy replaces NO_PROXY');
  assert.equal(resolveProxy('http://example.com/', config, env)?.host, 'cfg:3');
  assert.deepEqual(effectiveProxy(none, { no_proxy: ' a , b ,' }).noProxy, ['a', 'b']);
});

test('bad proxy addresses are refused with the field', () => {
  assert.throws(() => proxyUrl('socks5://p:1080', 'client.proxy.http'), (e: Error & { field?: string }) => e.field === 'client.proxy.http' && /not supported/.test(e.message));
  assert.throws(() => resolveProxy('http://a/', { ...none, http: 'http://[bad' }, {}), /invalid proxy address/);
  assert.equal(proxyUrl('proxy.local:8080').href, 'http://proxy.local:8080/');
});
