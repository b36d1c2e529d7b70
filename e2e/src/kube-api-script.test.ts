// `make kube-api` (scripts/kube-api.mjs): the test API server in the foreground on
// SLUICE_KUBE_API_PORT with a kubeconfig at SLUICE_KUBE_API_KUBECONFIG; kubectl works with it;
// SIGTERM and SIGINT stop it cleanly; a bad port or a taken one is refused.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cleanEnv, holdPort, ROOT, spawnProc, tempDir } from './support/processes.js';

const SCRIPT = join(ROOT, 'scripts', 'kube-api.mjs');

function kubectl(kubeconfig: string, cacheDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', ['--request-timeout=10s', ...args], { env: { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: cacheDir }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`the script serves on the port, writes the kubeconfig kubectl uses, and stops on ${signal}`, async (t) => {
    const dir = tempDir(t);
    const held = await holdPort(t);
    const port = held.port;
    await new Promise<void>((resolve) => held.server.close(() => resolve()));
    const kubeconfig = join(dir, 'nested', 'kubeconfig');
    const proc = spawnProc(t, process.execPath, [SCRIPT], cleanEnv({ SLUICE_KUBE_API_PORT: String(port), SLUICE_KUBE_API_KUBECONFIG: kubeconfig }));
    await proc.waitForLine(/^kubeconfig: /, 20_000);
    assert.match(proc.output(), new RegExp(`on http://127\\.0\\.0\\.1:${port}`));
    assert.ok(existsSync(kubeconfig));
    assert.match(readFileSync(kubeconfig, 'utf8'), new RegExp(`server: http://127\\.0\\.0\\.1:${port}`));
    const r = await kubectl(kubeconfig, join(dir, 'cache'), ['get', 'namespaces', '-o', 'name']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /namespace\/default/);
    proc.child.kill(signal);
    const exit = await proc.exited;
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.match(proc.output(), new RegExp(`${signal}: stopping`));
  });
}

test('the script refuses a port that is not a number (exit 2) and one that is taken (exit 1)', async (t) => {
  const dir = tempDir(t);
  const bad = spawnProc(t, process.execPath, [SCRIPT], cleanEnv({ SLUICE_KUBE_API_PORT: 'http', SLUICE_KUBE_API_KUBECONFIG: join(dir, 'k1') }));
  assert.equal((await bad.exited).code, 2);
  assert.match(bad.output(), /SLUICE_KUBE_API_PORT: "http" is not a port number/);
  const held = await holdPort(t);
  const taken = spawnProc(t, process.execPath, [SCRIPT], cleanEnv({ SLUICE_KUBE_API_PORT: String(held.port), SLUICE_KUBE_API_KUBECONFIG: join(dir, 'k2') }));
  assert.equal((await taken.exited).code, 1);
  assert.match(taken.output(), new RegExp(`cannot listen on 127\\.0\\.0\\.1:${held.port}`));
  assert.equal(existsSync(join(dir, 'k2')), false, 'no kubeconfig for a server that did not start');
});
