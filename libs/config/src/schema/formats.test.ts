import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFormat, describeFormat, isFqdn, isHostnamePort, isIp, isUrl } from './formats.js';

test('hostname_port accepts [host]:port with any port 0..65535', () => {
  for (const v of [':8080', ':0', ':65535', 'localhost:80', '127.0.0.1:2379', '[::1]:8080', '[fe80::1%eth0]:8080', 'a-b.example.com:443', 'etcd:2379']) {
    assert.ok(isHostnamePort(v), v);
  }
});

test('hostname_port refuses everything else', () => {
  for (const v of ['', 'abc', '8080', ':', ':65536', ':-1', 'host:port', '::1:8080', '[::1]', '[::1:8080', '[1.2.3.4]:80', 'ho st:80', 'http://h:80', '[fe80::1%]:80', 'h_st:80', '-host:80', ':080800']) {
    assert.ok(!isHostnamePort(v), v);
  }
});

test('url, fqdn and ip', () => {
  for (const v of ['http://proxy:3128', 'https://api.example.com/v1', 'http://[::1]:9090', 'http://127.0.0.1:2379']) assert.ok(isUrl(v), v);
  for (const v of ['', 'proxy:3128', 'http//x', 'http://', 'ht tp://x', 'http://a b']) assert.ok(!isUrl(v), v);
  for (const v of ['api.example.com', 'a.io', 'x-y.svc.cluster.local.']) assert.ok(isFqdn(v), v);
  for (const v of ['', 'localhost', 'not_fqdn!', 'a..b', '-a.com', 'a.1com']) assert.ok(!isFqdn(v), v);
  for (const v of ['10.0.0.1', '::1', 'fe80::1']) assert.ok(isIp(v), v);
  for (const v of ['', '10.0.0.300', '1.2.3', 'host']) assert.ok(!isIp(v), v);
});

test('combined formats accept any of their parts; durations by sign', () => {
  assert.ok(checkFormat('empty|hostname_port', ''));
  assert.ok(!checkFormat('hostname_port', ''));
  assert.ok(checkFormat('hostname_port|url|fqdn', 'prometheus.monitoring.svc'));
  assert.ok(checkFormat('hostname_port|url|fqdn', 'http://prometheus:9090'));
  assert.ok(!checkFormat('hostname_port|url|fqdn', 'prometheus'));
  assert.ok(checkFormat('duration', '1m30s') && !checkFormat('duration', '-1s') && !checkFormat('duration', '10'));
  assert.ok(checkFormat('signed_duration', '-1s') && checkFormat('signed_duration', '0'));
  assert.equal(describeFormat('empty|fqdn'), 'empty | fqdn (a fully qualified domain name such as api.example.com)');
});
