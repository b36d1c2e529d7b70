/**
 * Servers under test run in their own processes, so that the load generator's work, its
 * garbage collections and its timers never land in the server's event loop (or the other
 * way round). Every child started here is killed when the bench process exits, whether it
 * ends normally, throws, or is interrupted.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ChildServer {
  readonly name: string;
  readonly port: number;
  readonly pid: number;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface ChildServerOptions {
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  /** The first match's group 1 (on stdout or stderr) is the port the child listens on. */
  portPattern: RegExp;
  startTimeoutMs?: number;
}

const live = new Set<ChildProcess>();
let hooked = false;

function killAll(): void {
  for (const c of live) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  live.clear();
}

function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(sig, () => { killAll(); process.exit(128 + (sig === 'SIGINT' ? 2 : sig === 'SIGTERM' ? 15 : 1)); });
  }
}

function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) { live.delete(child); return Promise.resolve(); }
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => { clearTimeout(timer); live.delete(child); resolve(); });
    child.kill('SIGTERM');
  });
}

/**
 * Ends the bench process (and so, through the exit hook, every child) if it still runs
 * after `ms`: a stuck phase must not hold the machine.
 */
export function limitRunTime(name: string, ms: number): void {
  hookExit();
  setTimeout(() => {
    process.stderr.write(`${name}: still running after ${ms / 1000} s, stopping\n`);
    process.exit(1);
  }, ms).unref();
}

/** Starts a server process and resolves once it printed the port it listens on. */
export function startChildServer(opts: ChildServerOptions): Promise<ChildServer> {
  hookExit();
  const child = spawn(opts.command, opts.args, { env: opts.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  return new Promise<ChildServer>((resolve, reject) => {
    let seen = '';
    let done = false;
    const fail = (err: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void stopChild(child, 1000).then(() => reject(err));
    };
    const timer = setTimeout(() => fail(new Error(`${opts.name}: no port within ${opts.startTimeoutMs ?? 15_000} ms; output: ${seen.slice(-2000)}`)),
      opts.startTimeoutMs ?? 15_000);
    const watch = (d: Buffer): void => {
      if (done) return;
      seen += d.toString();
      const m = opts.portPattern.exec(seen);
      if (m === null) return;
      done = true;
      clearTimeout(timer);
      resolve({ name: opts.name, port: Number(m[1]), pid: child.pid ?? -1, stop: (graceMs = 3000) => stopChild(child, graceMs) });
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`${opts.name}: exited (${code ?? signal}) before listening; output: ${seen.slice(-2000)}`)));
    // The child watches its stdin: when the bench process dies, the pipe closes and the child leaves.
    child.stdin.on('error', () => undefined);
  });
}
