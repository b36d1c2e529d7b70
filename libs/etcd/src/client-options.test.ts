import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from '@sluice/errors';
import { resolveEtcdOptions } from './client-options.js';
import { etcdConfig } from './test-support.js';

function fieldOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof InvalidArgumentError, String(err));
    return err.field;
  }
  assert.fail('no error');
}

test('lease TTL in whole seconds, rounded up', () => {
  assert.equal(resolveEtcdOptions(etcdConfig('http://127.0.0.1:1', '1500ms'), 1000).leaseTtlSeconds, 2);
  assert.equal(resolveEtcdOptions(etcdConfig('http://127.0.0.1:1', '60s'), 1000).leaseTtlSeconds, 60);
});

test('bad settings name their field', () => {
  assert.equal(fieldOf(() => resolveEtcdOptions({ ...etcdConfig('x'), endpoints: [] }, 1000)), 'etcd.endpoints');
  assert.equal(fieldOf(() => resolveEtcdOptions(etcdConfig('http://127.0.0.1:1', '500ms'), 1000)), 'etcd.lease_ttl');
  assert.equal(fieldOf(() => resolveEtcdOptions(etcdConfig('http://127.0.0.1:1', '0s'), 1000)), 'etcd.lease_ttl');
  assert.equal(fieldOf(() => resolveEtcdOptions(etcdConfig('http://127.0.0.1:1', 'soon'), 1000)), 'etcd.lease_ttl');
  const tls = { ...etcdConfig('https://127.0.0.1:1'), tls: { ca_file: '/nonexistent/ca.pem', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' } };
  assert.equal(fieldOf(() => resolveEtcdOptions(tls, 1000)), 'etcd.tls.ca_file');
  const half = { ...etcdConfig('https://127.0.0.1:1'), tls: { ca_file: '', cert_file: '/x.pem', insecure_skip_verify: false, key_file: '', key_log_file: '' } };
  assert.equal(fieldOf(() => resolveEtcdOptions(half, 1000)), 'etcd.tls.key_file');
});

test('user and password become etcd auth; unsupported TLS settings are reported', () => {
  const r = resolveEtcdOptions({ ...etcdConfig('http://127.0.0.1:1'), username: 'u', password: 'p', tls: { ca_file: '', cert_file: '', insecure_skip_verify: true, key_file: '', key_log_file: '/tmp/k' } }, 1000);
  assert.deepEqual(r.client.auth, { username: 'u', password: 'p' });
  assert.equal(r.unsupported.length, 2);
  assert.equal(resolveEtcdOptions(etcdConfig('http://127.0.0.1:1'), 1000).client.auth, undefined);
});
