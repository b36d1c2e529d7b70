// A server binary of the Prometheus family (Prometheus, Alertmanager) on a free loopback port:
// started, awaited on its /-/ready, and stopped after the test (SIGTERM, SIGKILL after 5 s).
import type { TestContext } from 'node:test';
import { spawnProc, until, type Proc } from './processes.js';

export { freePort } from './ports.js';

/** Starts `bin args` (which listen on `port`), stopped in t.after; resolves once /-/ready answers 200. */
export async function startReadyDaemon(t: TestContext, name: string, bin: string, args: string[], port: number): Promise<{ proc: Proc; url: string }> {
  const proc = spawnProc(t, bin, args, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
  t.after(async () => {
    if (proc.child.exitCode === null && proc.child.signalCode === null) {
      proc.child.kill('SIGTERM');
      const timer = setTimeout(() => proc.child.kill('SIGKILL'), 5000);
      await proc.exited;
      clearTimeout(timer);
    }
  });
  const url = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (proc.child.exitCode !== null) throw new Error(`${name} exited:\n${proc.output()}`);
    try {
      const r = await fetch(`${url}/-/ready`);
      await r.arrayBuffer();
      return r.status === 200;
    } catch {
      return false;
    }
  }, 20_000, `${name} ready`);
  return { proc, url };
}
