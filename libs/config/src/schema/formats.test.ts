import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkFormat, describeFormat, isDnsLabel, isDnsSubdomain, isFqdn, isHostnamePort, isImageReference, isIp, isUrl } from './formats.js';

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

test('image references: [domain[:port]/]path[:tag][@digest], path lower case', () => {
  const digest = `sha256:${'0a'.repeat(32)}`;
  for (const v of ['tap', 'sluice/tap:0.1.0', 'registry.example/sluice/tap', 'localhost:5000/tap:v1', 'Registry.Example:443/a/b-c/d__e.f:Tag_1.2-x',
    `sluice/tap@${digest}`, `sluice/tap:0.1.0@${digest}`, '[::1]:5000/tap', '10.0.0.1:5000/team/tap:latest']) assert.ok(isImageReference(v), v);
  for (const v of ['', 'sluice/Tap', 'Registry/Tap', 'sluice/tap:', 'sluice/tap:-x', ':0.1.0', 'sluice//tap', 'sluice/tap 0.1', '/tap', 'tap/',
    'sluice/tap@sha256:abc', 'sluice/-tap', 'sluice/tap:0.1.0:1', `${'a'.repeat(256)}:1`, `sluice/tap:${'x'.repeat(129)}`]) assert.ok(!isImageReference(v), v);
});

test('DNS labels and subdomains, lower case', () => {
  for (const v of ['a', 'sluice-agent-peers', '0abc', 'a'.repeat(63)]) assert.ok(isDnsLabel(v), v);
  for (const v of ['', 'A', 'a_b', '-a', 'a-', 'a.b', 'a'.repeat(64)]) assert.ok(!isDnsLabel(v), v);
  for (const v of ['a', 'sluice-agent-sidecar', 'a.b-c.d', `${'a'.repeat(63)}.b`]) assert.ok(isDnsSubdomain(v), v);
  for (const v of ['', 'A', 'a..b', '.a', 'a.', 'a_b', '-a.b', `${'a.'.repeat(127)}ab`]) assert.ok(!isDnsSubdomain(v), v);
});
