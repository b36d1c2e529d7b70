import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../bin/sluice-tap');

function run(args: string[], env: NodeJS.ProcessEnv = {}): { status: number | null; stderr: string; stdout: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SLUICE_TAP_')));
  const r = spawnSync(BIN, args, { env: { ...clean, ...env }, encoding: 'utf8', timeout: 20_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

const TABLE: Array<[string, string[], NodeJS.ProcessEnv, RegExp]> = [
  ['no upstream', [], {}, /--upstream \(SLUICE_TAP_UPSTREAM\): is required/],
  ['bad listen', ['--upstream', 'http://127.0.0.1:1', '--listen', 'nowhere'], {}, /--listen \(SLUICE_TAP_LISTEN\): "nowhere" is not a host:port address/],
  ['bad timeout in env', ['--upstream', 'http://127.0.0.1:1'], { SLUICE_TAP_CHECK_TIMEOUT: '10' }, /--check-timeout \(SLUICE_TAP_CHECK_TIMEOUT\): "10" is not a duration/],
  ['unknown flag', ['--upstream', 'http://127.0.0.1:1', '--verbose'], {}, /unknown flag --verbose/],
  ['bad body bytes', ['--upstream', 'http://127.0.0.1:1', '--body-bytes', 'lots'], {}, /--body-bytes \(SLUICE_TAP_BODY_BYTES\)/],
];

for (const [name, args, env, pattern] of TABLE) {
  test(`sluice-tap exits 2 on bad input: ${name}`, () => {
    const r = run(args, env);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, pattern);
    assert.match(r.stderr, /^sluice-tap: /);
  });
}

test('sluice-tap reports every problem and exits 2 before binding anything', async (t) => {
  // A port already taken: had the tap bound before validating, it would fail with 1, not 2.
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => blocker.close(resolve)));
  const port = (blocker.address() as net.AddressInfo).port;
  const r = run(['--upstream', 'ftp://x', '--listen', `127.0.0.1:${port}`, '--log-level', 'loud']);
  assert.equal(r.status, 2);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 2, r.stderr);
  assert.match(r.stderr, /--upstream \(SLUICE_TAP_UPSTREAM\)/);
  assert.match(r.stderr, /--log-level \(SLUICE_TAP_LOG_LEVEL\)/);
});

test('sluice-tap --help exits 0 with the flags and their variables', () => {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  assert.match(r.stdout, /SLUICE_TAP_FAIL_CLOSED/);
});

test('sluice-tap exits 1 when its port is taken', async (t) => {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => blocker.close(resolve)));
  const port = (blocker.address() as net.AddressInfo).port;
  const r = run(['--upstream', 'http://127.0.0.1:1', '--listen', `127.0.0.1:${port}`, '--admin', '127.0.0.1:0']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /tap failed to start/);
  assert.match(r.stderr, /EADDRINUSE/);
});
