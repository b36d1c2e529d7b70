// Real Sluice processes (agent, controller, tap) on free loopback ports, for
// end-to-end tests. Every process started here is killed in t.after, even
// when the test fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ETCD_ENDPOINTS = '["http://127.0.0.1:2379"]';

export interface Exit { code: number | null; signal: NodeJS.Signals | null }

/** A started child process with its combined output. */
export interface Proc {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  readonly exited: Promise<Exit>;
  /** Resolves with the first output line matching `re`; rejects after `ms` or when the process exits first. */
  waitForLine(re: RegExp, ms?: number): Promise<string>;
}

/** The environment without any SLUICE_* variable of the caller, plus `extra`. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('SLUICE_') && v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

/** A temporary directory removed in t.after. */
export function tempDir(t: TestContext, prefix = 'sluice-e2e-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeFile(dir: string, name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** Follows a child's stdout and stderr together: its output so far, its exit, and a wait for a line. */
export function followOutput(child: ChildProcess, name: string): Pick<Proc, 'output' | 'exited' | 'waitForLine'> {
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer): void => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => {
    resolve({ code, signal });
    for (const l of listeners) l();
  }));
  const waitForLine = (re: RegExp, ms = 60_000): Promise<string> => new Promise((resolve, reject) => {
    const check = (): void => {
      // Complete lines only: a JSON log line may arrive in pieces.
      const line = out.slice(0, out.lastIndexOf('\n') + 1).split('\n').find((l) => re.test(l));
      if (line !== undefined) done(() => resolve(line));
      else if (child.exitCode !== null || child.signalCode !== null) done(() => reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before ${re}:\n${out}`)));
    };
    const timer = setTimeout(() => done(() => reject(new Error(`${name}: no line matching ${re} within ${ms} ms:\n${out}`))), ms);
    const done = (f: () => void): void => {
      clearTimeout(timer);
      listeners.delete(check);
      f();
    };
    listeners.add(check);
    check();
  });
  return { output: () => out, exited, waitForLine };
}

/** Spawns `bin` with `args`; the process is SIGKILLed in t.after if still running. */
export function spawnProc(t: TestContext, bin: string, args: string[], env: Record<string, string>): Proc {
  const child = spawn(bin, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { output, exited, waitForLine } = followOutput(child, bin);
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, pid: child.pid ?? -1, output, exited, waitForLine };
}

export interface SluiceProcess extends Proc {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  /** `127.0.0.1:<port>` (gRPC and HTTP share the port) */
  readonly address: string;
}

export interface StartOptions {
  env?: Record<string, string>;
  args?: string[];
  /** YAML (or JSON) text of a config file passed with --config. */
  config?: string;
  /** Wait for readiness 200 (default true), for liveness only (`'live'`: readiness also waits for etcd), or not at all. */
  ready?: boolean | 'live';
  /** How long the start-up line and readiness may each take (default 60 s and 30 s). */
  startMs?: number;
}

const REQUIRED = {
  agent: { SLUICE_AGENT_ETCD_ENDPOINTS: ETCD_ENDPOINTS },
  controller: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: ETCD_ENDPOINTS, SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: 'http://127.0.0.1:9090' },
} as const;

/**
 * An agent's dist-cache addresses on loopback, each on a port the system picks
 * at bind time (the defaults :3320 and :3322 would collide between agents of
 * one host, and so would ports chosen ahead of the bind).
 */
export const AGENT_DIST_CACHE_ENV = {
  SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
  SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
} as const;

/** The environment a Sluice process needs on a free loopback port, plus `extra`. */
export function processEnv(service: 'agent' | 'controller', extra: Record<string, string> = {}): Record<string, string> {
  const prefix = service === 'agent' ? 'SLUICE_AGENT_' : 'SLUICE_CONTROLLER_';
  const ports = service === 'agent' ? AGENT_DIST_CACHE_ENV : {};
  return cleanEnv({ ...REQUIRED[service], [`${prefix}SERVER_LISTENER_ADDR`]: '127.0.0.1:0', ...ports, [`${prefix}LOG_LEVEL`]: 'info', ...extra });
}

/** Starts bin/sluice-<service>, reads its port from the "serving" log line and waits for readiness. */
export async function startSluice(t: TestContext, service: 'agent' | 'controller', opts: StartOptions = {}): Promise<SluiceProcess> {
  const args = [...(opts.args ?? [])];
  if (opts.config !== undefined) args.push('--config', writeFile(tempDir(t), `${service}.yaml`, opts.config));
  const proc = spawnProc(t, join(ROOT, 'bin', `sluice-${service}`), args, processEnv(service, opts.env));
  const line = await proc.waitForLine(/serving gRPC and HTTP/, opts.startMs);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const started: SluiceProcess = { ...proc, port, base: `http://127.0.0.1:${port}`, address: `127.0.0.1:${port}` };
  if (opts.ready === 'live') await waitStatus(started.base, 'liveness', opts.startMs);
  else if (opts.ready !== false) await waitReady(started.base, opts.startMs);
  return started;
}

export function startAgent(t: TestContext, opts: StartOptions = {}): Promise<SluiceProcess> {
  return startSluice(t, 'agent', opts);
}

export function startController(t: TestContext, opts: StartOptions = {}): Promise<SluiceProcess> {
  return startSluice(t, 'controller', opts);
}

/** Polls readiness until it answers 200. */
export async function waitReady(base: string, ms = 30_000): Promise<void> {
  await waitStatus(base, 'readiness', ms);
}

/** Polls `/v1/status/system/<which>` until it answers 200. */
async function waitStatus(base: string, which: 'readiness' | 'liveness', ms = 30_000): Promise<void> {
  await until(async () => {
    try {
      const r = await fetch(`${base}/v1/status/system/${which}`);
      await r.arrayBuffer();
      return r.status === 200;
    } catch {
      return false;
    }
  }, ms, `${base} ${which}`);
}

/**
 * Polls `cond` every `pollMs` (20 ms unless told) until it holds; throws after `ms`. A condition that
 * starts a process (a CLI) takes a longer `pollMs`, so that waiting does not keep a core busy.
 */
export async function until(cond: () => boolean | Promise<boolean>, ms = 5000, what = 'condition', pollMs = 20): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

export interface TapProcess extends Proc { readonly listen: number; readonly admin: number; readonly base: string }

/** Starts bin/sluice-tap in front of `upstream`, asking `agent`, on free ports. */
export async function startTap(t: TestContext, upstream: string, agent: string, controlPoint: string, extra: string[] = []): Promise<TapProcess> {
  const proc = spawnProc(t, join(ROOT, 'bin', 'sluice-tap'), [
    '--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', '--upstream', upstream, '--agent', agent, '--control-point', controlPoint, ...extra,
  ], cleanEnv());
  const line = await proc.waitForLine(/"tap started"/);
  type Ports = { listen: { port: number }; admin: { port: number } };
  const logged = JSON.parse(line) as Ports & { meta?: Ports };
  const entry = logged.meta ?? logged;
  return { ...proc, listen: entry.listen.port, admin: entry.admin.port, base: `http://127.0.0.1:${entry.listen.port}` };
}

/** Resident set size of a process in bytes (Linux /proc). */
export function rssBytes(pid: number): number {
  const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** A free TCP port on 127.0.0.1, with the server that holds it (close it to free the port). */
export function holdPort(t: TestContext): Promise<{ port: number; server: net.Server }> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      t.after(() => new Promise<void>((r) => server.close(() => r())));
      resolve({ port: (server.address() as net.AddressInfo).port, server });
    });
  });
}
