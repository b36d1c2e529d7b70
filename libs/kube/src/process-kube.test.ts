import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@sluice/telemetry/logger';
import { KubeConfigError, ProcessKube } from './light.js';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: 'https://127.0.0.1:1'}
users:
- name: u
  user: {token: t}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`;

function kubeconfig(t: { after(fn: () => void): void }, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-process-kube-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'config'), text);
  return join(dir, 'config');
}

test('one client per process: every user gets the same one; it runs while held and stops with its last holder', async (t) => {
  const kube = new ProcessKube({ env: { KUBECONFIG: kubeconfig(t, KUBECONFIG) }, homeDir: '/nonexistent', logger: silentLogger });
  assert.equal(kube.available(), true);
  const [a, b] = await Promise.all([kube.client(), kube.client()]);
  assert.equal(a, b, 'one client');
  const started = (): boolean => (a as unknown as { started: boolean }).started;
  assert.equal(started(), false, 'loaded, not running, until held');
  assert.equal(await kube.hold(), a);
  await kube.hold();
  assert.equal(started(), true);
  kube.release();
  assert.equal(started(), true, 'still held once');
  kube.release();
  await new Promise((r) => setImmediate(r));
  assert.equal(started(), false, 'the last holder stops it');
  kube.release();
  assert.equal(started(), false, 'a release too many does nothing');
});

test('no Kubernetes API: not available; a kubeconfig that does not parse rejects with KubeConfigError', async (t) => {
  assert.equal(new ProcessKube({ env: {}, homeDir: '/nonexistent', logger: silentLogger }).available(), false);
  const bad = new ProcessKube({ env: { KUBECONFIG: kubeconfig(t, 'clusters: [') }, homeDir: '/nonexistent', logger: silentLogger });
  assert.equal(bad.available(), true);
  await assert.rejects(bad.client(), KubeConfigError);
});
