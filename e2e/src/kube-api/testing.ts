// For e2e tests: a test API server on a free loopback port, its kubeconfig in a temp dir, and
// kubectl against it (own discovery cache dir, bounded in time). All stopped in t.after.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { writeKubeconfig } from './kubeconfig.js';
import { KubeApiServer, type KubeApiOptions } from './server.js';

export interface TestKubeApi {
  server: KubeApiServer;
  url: string;
  kubeconfig: string;
  dir: string;
  /** Runs kubectl with this kubeconfig; resolves with its output and exit code (never rejects on a non-zero exit). */
  kubectl(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Runs kubectl and asserts it exits 0 (the message gives its stderr); resolves with its output. */
  kubectlOk(args: string[], input?: string): Promise<string>;
}

export async function startTestKubeApi(t: TestContext, opts: KubeApiOptions = {}): Promise<TestKubeApi> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-kube-api-'));
  const server = new KubeApiServer(opts);
  t.after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const url = await server.start();
  const kubeconfig = writeKubeconfig(join(dir, 'kubeconfig'), url);
  const env = { ...process.env, KUBECONFIG: kubeconfig, KUBECACHEDIR: join(dir, 'cache'), HOME: dir };
  const kubectl = (args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile('kubectl', ['--request-timeout=10s', ...args], { env, timeout: 30_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
      if (input !== undefined) child.stdin?.end(input);
    });
  const kubectlOk = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed: ${r.stderr}`);
    return r.stdout;
  };
  return { server, url, kubeconfig, dir, kubectl, kubectlOk };
}
