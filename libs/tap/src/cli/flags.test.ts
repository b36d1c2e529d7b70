import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envName, parseTapFlags } from './flags.js';

const UP = ['--upstream', 'http://127.0.0.1:3000'];

function options(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const r = parseTapFlags(argv, env);
  assert.equal(r.kind, 'options', r.kind === 'problems' ? r.problems.join('\n') : '');
  return (r as Extract<typeof r, { kind: 'options' }>).options;
}

function problems(argv: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const r = parseTapFlags(argv, env);
  assert.equal(r.kind, 'problems');
  return (r as Extract<typeof r, { kind: 'problems' }>).problems;
}

test('defaults', () => {
  assert.deepEqual(options(UP), {
    listen: { host: '', port: 8081 },
    upstream: { host: '127.0.0.1', port: 3000 },
    upstreamProtocol: 'http1',
    agent: '127.0.0.1:8080',
    controlPoint: 'ingress',
    admin: { host: '127.0.0.1', port: 9091 },
    bodyBytes: 8192,
    checkTimeoutMs: 250,
    upstreamTimeoutMs: 60_000,
    shutdownTimeoutMs: 10_000,
    failClosed: false,
    logLevel: 'info',
    maxRequestHeaderBytes: 65_536,
    maxResponseHeaderBytes: 65_536,
    maxRequestHeaders: 100,
    maxResponseHeaders: 100,
    mergeSlashes: true,
    agentTls: { ca: '', cert: '', key: '' },
    agentUnavailableGraceMs: 30_000,
    failOpenSilently: false,
  });
});

test('TLS to the agent and its unavailability: files, grace, fail-open-silently; a certificate needs its key', () => {
  const o = options([...UP, '--agent-tls-ca', '/tls/ca.crt', '--agent-tls-cert=/tls/tls.crt', '--agent-unavailable-grace', '5s', '--fail-open-silently'],
    { SLUICE_TAP_AGENT_TLS_KEY: '/tls/tls.key' });
  assert.deepEqual(o.agentTls, { ca: '/tls/ca.crt', cert: '/tls/tls.crt', key: '/tls/tls.key' });
  assert.equal(o.agentUnavailableGraceMs, 5000);
  assert.equal(o.failOpenSilently, true);
  assert.deepEqual(problems([...UP, '--agent-tls-cert', '/tls/tls.crt']), [
    '--agent-tls-cert (SLUICE_TAP_AGENT_TLS_CERT) and --agent-tls-key (SLUICE_TAP_AGENT_TLS_KEY): give both or neither']);
  assert.match(problems([...UP, '--agent-unavailable-grace', 'soon'])[0] ?? '', /^--agent-unavailable-grace \(SLUICE_TAP_AGENT_UNAVAILABLE_GRACE\): "soon" is not a duration/);
});

test('flags in both spellings, environment variables, and the flag winning over its variable', () => {
  const o = options(['--listen=127.0.0.1:8081', '--upstream', 'http://[::1]:3000/', '--agent', 'agent.local:8080', '--control-point', 'egress',
    '--admin', '[::1]:0', '--body-bytes', '0', '--check-timeout', '1.5s', '--fail-closed', '--log-level', 'debug'],
  { SLUICE_TAP_CONTROL_POINT: 'from-env', SLUICE_TAP_UPSTREAM_TIMEOUT: '2m', SLUICE_TAP_SHUTDOWN_TIMEOUT: '0' });
  assert.deepEqual(o.listen, { host: '127.0.0.1', port: 8081 });
  assert.deepEqual(o.upstream, { host: '::1', port: 3000 });
  assert.equal(o.agent, 'agent.local:8080');
  assert.equal(o.controlPoint, 'egress');
  assert.deepEqual(o.admin, { host: '::1', port: 0 });
  assert.equal(o.bodyBytes, 0);
  assert.equal(o.checkTimeoutMs, 1500);
  assert.equal(o.upstreamTimeoutMs, 120_000);
  assert.equal(o.shutdownTimeoutMs, 0);
  assert.equal(o.failClosed, true);
  assert.equal(o.logLevel, 'debug');
  assert.equal(options([], { SLUICE_TAP_UPSTREAM: 'http://w:80', SLUICE_TAP_FAIL_CLOSED: 'true' }).failClosed, true);
  assert.equal(options([...UP, '--fail-closed=false']).failClosed, false);
  assert.equal(options([...UP, '--merge-slashes=false']).mergeSlashes, false);
  assert.equal(options(UP, { SLUICE_TAP_MERGE_SLASHES: '0' }).mergeSlashes, false);
  assert.deepEqual(options(['--upstream', 'http://workload']).upstream, { host: 'workload', port: 80 });
  const limits = options([...UP, '--max-request-header-bytes', '131072', '--max-request-headers=200'], { SLUICE_TAP_MAX_RESPONSE_HEADER_BYTES: '32768', SLUICE_TAP_MAX_RESPONSE_HEADERS: '300' });
  assert.equal(limits.maxRequestHeaderBytes, 131_072);
  assert.equal(limits.maxResponseHeaderBytes, 32_768);
  assert.equal(limits.maxRequestHeaders, 200);
  assert.equal(limits.maxResponseHeaders, 300);
});

test('env names', () => {
  assert.equal(envName('check-timeout'), 'SLUICE_TAP_CHECK_TIMEOUT');
  assert.equal(envName('listen'), 'SLUICE_TAP_LISTEN');
});

const BAD: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
  ['missing upstream', [], {}, /^--upstream \(SLUICE_TAP_UPSTREAM\): is required/],
  ['upstream not a URL', ['--upstream', 'nope'], {}, /^--upstream \(SLUICE_TAP_UPSTREAM\): "nope" is not a URL/],
  ['upstream https', ['--upstream', 'https://a:1'], {}, /scheme "https" is not supported/],
  ['upstream with a path', ['--upstream', 'http://a:1/x'], {}, /has a path, query or fragment/],
  ['upstream with credentials', ['--upstream', 'http://u:p@a:1'], {}, /credentials/],
  ['listen without port', [...UP, '--listen', '127.0.0.1'], {}, /^--listen \(SLUICE_TAP_LISTEN\): "127\.0\.0\.1" is not a host:port address/],
  ['listen port out of range', [...UP, '--listen', ':70000'], {}, /^--listen \(SLUICE_TAP_LISTEN\): port 70000 is out of range 0\.\.65535/],
  ['listen bad host', [...UP, '--listen', 'bad_host!:80'], {}, /is not an IP address or host name/],
  ['listen bracketed non-IPv6', [...UP, '--listen', '[abc]:80'], {}, /in brackets is not an IPv6 address/],
  ['agent without host', [...UP, '--agent', ':8080'], {}, /^--agent \(SLUICE_TAP_AGENT\): ":8080" has no host/],
  ['agent port 0', [...UP, '--agent', 'a:0'], {}, /^--agent \(SLUICE_TAP_AGENT\): port 0 is out of range 1\.\.65535/],
  ['admin non-numeric port', [...UP, '--admin', 'a:http'], {}, /^--admin \(SLUICE_TAP_ADMIN\): port "http" is not a number/],
  ['control point with a space', [...UP, '--control-point', 'a b'], {}, /^--control-point \(SLUICE_TAP_CONTROL_POINT\): "a b" must be/],
  ['empty control point from env', UP, { SLUICE_TAP_CONTROL_POINT: '' }, /^--control-point \(SLUICE_TAP_CONTROL_POINT\): "" must be .*\(from SLUICE_TAP_CONTROL_POINT\)$/],
  ['negative body bytes', [...UP, '--body-bytes', '-1'], {}, /^--body-bytes \(SLUICE_TAP_BODY_BYTES\): "-1" is not an integer in 0\.\.1048576/],
  ['body bytes over the bound', [...UP, '--body-bytes', '1048577'], {}, /is not an integer in 0\.\.1048576/],
  ['check timeout without unit', [...UP, '--check-timeout', '250'], {}, /^--check-timeout \(SLUICE_TAP_CHECK_TIMEOUT\): "250" is not a duration/],
  ['check timeout zero', [...UP, '--check-timeout', '0'], {}, /^--check-timeout \(SLUICE_TAP_CHECK_TIMEOUT\): 0 is out of range 1ms\.\.60s/],
  ['check timeout too long', [...UP, '--check-timeout', '2m'], {}, /2m is out of range/],
  ['negative upstream timeout', [...UP, '--upstream-timeout', '-1s'], {}, /^--upstream-timeout \(SLUICE_TAP_UPSTREAM_TIMEOUT\): -1s is out of range/],
  ['bad shutdown timeout from env', UP, { SLUICE_TAP_SHUTDOWN_TIMEOUT: 'soon' }, /^--shutdown-timeout \(SLUICE_TAP_SHUTDOWN_TIMEOUT\): "soon" is not a duration.*\(from SLUICE_TAP_SHUTDOWN_TIMEOUT\)$/],
  ['fail-closed not a boolean', [...UP, '--fail-closed=maybe'], {}, /^--fail-closed \(SLUICE_TAP_FAIL_CLOSED\): "maybe" is not true or false/],
  ['unknown log level', [...UP, '--log-level', 'trace'], {}, /^--log-level \(SLUICE_TAP_LOG_LEVEL\): "trace" is not one of error, warn, info, debug/],
  ['request head bound too small', [...UP, '--max-request-header-bytes', '100'], {}, /^--max-request-header-bytes \(SLUICE_TAP_MAX_REQUEST_HEADER_BYTES\): "100" is not an integer in 1024\.\.1048576/],
  ['response head bound not a number', [...UP, '--max-response-header-bytes', '64k'], {}, /^--max-response-header-bytes \(SLUICE_TAP_MAX_RESPONSE_HEADER_BYTES\): "64k" is not an integer/],
  ['header count zero', [...UP, '--max-request-headers', '0'], {}, /^--max-request-headers \(SLUICE_TAP_MAX_REQUEST_HEADERS\): "0" is not an integer in 1\.\.10000/],
  ['header count from env too large', UP, { SLUICE_TAP_MAX_REQUEST_HEADERS: '10001' }, /is not an integer in 1\.\.10000 \(from SLUICE_TAP_MAX_REQUEST_HEADERS\)$/],
  ['response header count zero', [...UP, '--max-response-headers', '0'], {}, /^--max-response-headers \(SLUICE_TAP_MAX_RESPONSE_HEADERS\): "0" is not an integer in 1\.\.10000/],
  ['response header count not a number', [...UP, '--max-response-headers', 'many'], {}, /^--max-response-headers \(SLUICE_TAP_MAX_RESPONSE_HEADERS\): "many" is not an integer/],
  ['unknown flag', [...UP, '--listn', ':1'], {}, /^unknown flag --listn/],
  ['stray argument', [...UP, 'extra'], {}, /^unexpected argument "extra"/],
  ['missing value', [...UP, '--listen'], {}, /^--listen \(SLUICE_TAP_LISTEN\): needs a value/],
  ['value that looks like a flag', [...UP, '--agent', '--listen', ':1'], {}, /^--agent \(SLUICE_TAP_AGENT\): needs a value/],
];

for (const [name, argv, env, pattern] of BAD) {
  test(`bad input: ${name}`, () => {
    const p = problems(argv, env);
    assert.equal(p.length, 1, p.join('\n'));
    assert.match(p[0] as string, pattern);
  });
}

test('every problem is reported, one message each', () => {
  const p = problems(['--listen', 'x', '--body-bytes', 'many', '--nope'], { SLUICE_TAP_CHECK_TIMEOUT: 'never' });
  assert.equal(p.length, 5, p.join('\n'));
});

test('--help', () => {
  const r = parseTapFlags(['--upstream', 'bad', '--help'], {});
  assert.equal(r.kind, 'help');
  assert.match((r as { text: string }).text, /--check-timeout VALUE {2}\(SLUICE_TAP_CHECK_TIMEOUT; default "250ms"\)/);
});

test('--upstream-protocol: h2c or http1, from the flag or SLUICE_TAP_UPSTREAM_PROTOCOL; anything else is refused', () => {
  assert.equal(options([...UP, '--upstream-protocol', 'h2c']).upstreamProtocol, 'h2c');
  assert.equal(options(UP, { SLUICE_TAP_UPSTREAM_PROTOCOL: 'h2c' }).upstreamProtocol, 'h2c');
  assert.equal(options([...UP, '--upstream-protocol=http1'], { SLUICE_TAP_UPSTREAM_PROTOCOL: 'h2c' }).upstreamProtocol, 'http1');
  assert.deepEqual(problems([...UP, '--upstream-protocol', 'h2']),
    ['--upstream-protocol (SLUICE_TAP_UPSTREAM_PROTOCOL): "h2" is not one of http1, h2c']);
});
