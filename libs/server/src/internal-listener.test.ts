import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createTestPki } from './cert-support.js';
import { createServer } from './create-server.js';
import { defaultConfig } from './test-support.js';

// A temp dir of this test's own (os.tmpdir() follows TMPDIR), so concurrent tests cannot interfere.
const privateTmp = mkdtempSync(join(tmpdir(), 'sluice-gw-test-'));
const gatewayDirs = (): string[] => readdirSync(privateTmp).filter((n) => n.startsWith('sluice-gw-'));

test('the private gateway entrance of a TLS server exists only while it runs', async (t) => {
  const pki = createTestPki([]);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = privateTmp;
  t.after(() => {
    pki.cleanup();
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(privateTmp, { recursive: true, force: true });
  });
  const config = defaultConfig({ tls: { enabled: true, cert_file: pki.serverCert, key_file: pki.serverKey } });

  createServer(config, { registry: new Registry() });
  assert.deepEqual(gatewayDirs(), [], 'a server that is only built leaves no directory');

  const server = createServer(config, { registry: new Registry() });
  await server.start();
  assert.equal(gatewayDirs().length, 1, 'a running TLS server has its entrance');
  await server.shutdown({ deadlineMs: 1000 });
  assert.deepEqual(gatewayDirs(), [], 'shutdown removes it');
});
