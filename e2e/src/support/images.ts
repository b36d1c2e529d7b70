// The container images (Containerfile, scripts/images.sh) for end-to-end tests: the local test base
// (scripts/image-test-base.sh), building, inspecting, and running an image's entrypoint with buildah
// (chroot isolation: the host's network and process table, which the tests use). Every container and
// process started here is removed in t.after.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TestContext } from 'node:test';
import { followOutput, ROOT, type Proc } from './processes.js';

export interface Ran { code: number | null; out: string; ms: number }

/** Runs a command to its end (SIGKILL after `timeoutMs`); stdout and stderr together. */
export function run(cmd: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.once('error', (err) => { clearTimeout(timer); reject(err); });
    child.once('close', (code) => { clearTimeout(timer); resolve({ code, out, ms: Date.now() - started }); });
  });
}

/** Like run(), throwing with the output unless it exits 0. */
export async function runOk(cmd: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<Ran> {
  const r = await run(cmd, args, opts);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code} after ${r.ms} ms:\n${r.out.slice(-20_000)}`);
  return r;
}

export interface ImageInfo {
  entrypoint: string[];
  user: string;
  env: string[];
  labels: Record<string, string>;
  /** As buildah lists it (e.g. "278 MB"). */
  size: string;
}

/** An image's configuration (buildah inspect). */
export async function imageConfig(ref: string): Promise<Omit<ImageInfo, 'size'>> {
  const r = await runOk('buildah', ['inspect', '--type', 'image', ref]);
  const config = (JSON.parse(r.out) as { OCIv1: { config: { Entrypoint?: string[]; User?: string; Env?: string[]; Labels?: Record<string, string> } } }).OCIv1.config;
  return { entrypoint: config.Entrypoint ?? [], user: config.User ?? '', env: config.Env ?? [], labels: config.Labels ?? {} };
}

/** An image's configuration and its size as scripts/images.sh prints it. */
export async function inspectImage(ref: string): Promise<ImageInfo> {
  const [config, size] = await Promise.all([imageConfig(ref), runOk('bash', ['scripts/images.sh', 'size', ref], { env: { CONTAINER_TOOL: 'buildah' } })]);
  return { ...config, size: size.out.trim() };
}

/** Parent pid of every process (Linux /proc). */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      out.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** The processes below `pid`. */
export function descendants(pid: number): number[] {
  const ppid = parents();
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next: number[] = [];
    for (const [p, parent] of ppid) if (frontier.includes(parent)) next.push(p);
    found.push(...next);
    frontier = next;
  }
  return found;
}

export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter((s) => s !== '');
  } catch {
    return [];
  }
}

/** The real user id of a process. */
export function uidOf(pid: number): number {
  const m = /^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no Uid for ${pid}`);
  return Number(m[1]);
}

export interface InImage extends Proc {
  /** The working container (buildah from). */
  readonly container: string;
  /** The Node process of the app inside, once it runs. */
  nodePid(): number;
}

/**
 * A working container of `ref` running its entrypoint with `args` and `env` (buildah run, chroot
 * isolation, the host's network). In t.after the processes inside are killed, then buildah, and
 * the container is removed.
 */
export async function runImage(t: TestContext, ref: string, name: string, args: string[], env: Record<string, string>): Promise<InImage> {
  const container = (await runOk('buildah', ['from', '--pull=never', '--name', name, ref])).out.trim().split('\n').pop() ?? name;
  const { entrypoint } = await imageConfig(ref);
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
  const child = spawn('buildah', ['run', '--isolation', 'chroot', '--network', 'host', ...envArgs, container, '--', ...entrypoint, ...args], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { output, exited, waitForLine } = followOutput(child, name);
  const pid = child.pid ?? -1;
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      for (const p of descendants(pid).reverse()) {
        try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
      }
      child.kill('SIGKILL');
      await exited;
    }
    await run('buildah', ['rm', container]);
  });
  const nodePid = (): number => {
    const found = descendants(pid).filter((p) => cmdline(p)[0]?.endsWith('node'));
    if (found.length !== 1) throw new Error(`${name}: ${found.length} node processes in the container`);
    return found[0];
  };
  return { child, pid, output, exited, waitForLine, container, nodePid };
}

/**
 * What a run wrote into the container's own layer outside /tmp (overlay storage: the upper directory
 * beside the mount point), files and empty folders, less what buildah run itself places to run a
 * command (`plumbing`; folders end with /).
 */
export async function writtenOutsideTmp(container: string, plumbing: ReadonlySet<string>): Promise<string[]> {
  const merged = (await runOk('buildah', ['mount', container])).out.trim();
  try {
    const upper = join(dirname(merged), 'diff');
    const found: string[] = [];
    const walk = (dir: string, rel: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        const r = rel === '' ? name : `${rel}/${name}`;
        if (r === 'tmp') continue;
        if (!lstatSync(path).isDirectory()) {
          if (!plumbing.has(r)) found.push(r);
        } else if (readdirSync(path).length === 0) {
          if (!plumbing.has(`${r}/`)) found.push(`${r}/`);
        } else {
          walk(path, r);
        }
      }
    };
    walk(upper, '');
    return found;
  } finally {
    await run('buildah', ['umount', container]);
  }
}
