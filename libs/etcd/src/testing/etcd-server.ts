// A real etcd server (/usr/bin/etcd, 3.4) on free loopback ports with a
// temporary data directory, for tests of this lib, of the libs above it and
// of e2e. The server can be stopped, killed and started again on the same
// ports and data (to test what clients do while etcd is away).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface EtcdServerOptions {
  /** The etcd executable; default `$SLUICE_ETCD_BIN` or `/usr/bin/etcd`. */
  bin?: string;
  /** Longest wait for the server to answer /health, per start. Default 15 s. */
  readyTimeoutMs?: number;
}

export interface EtcdServer {
  /** `http://127.0.0.1:<port>`: what clients dial. */
  readonly endpoint: string;
  readonly clientPort: number;
  readonly dataDir: string;
  /** True while the process runs. */
  readonly running: boolean;
  /** Output of the current (or last) process, for failure messages. */
  output(): string;
  /** Starts the server again on the same ports and data (after stop or kill). */
  start(): Promise<void>;
  /** SIGTERM, and waits for the exit (SIGKILL after 5 s). */
  stop(): Promise<void>;
  /** SIGKILL, and waits for the exit. */
  kill(): Promise<void>;
  /** Stops the server and removes its data directory. */
  close(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (free when asked; the OS may hand it out again later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts etcd on two free loopback ports (client, peer) with a fresh data directory. */
export async function startEtcdServer(opts: EtcdServerOptions = {}): Promise<EtcdServer> {
  const bin = opts.bin ?? process.env.SLUICE_ETCD_BIN ?? '/usr/bin/etcd';
  const readyTimeoutMs = opts.readyTimeoutMs ?? 15_000;
  const dataDir = mkdtempSync(join(tmpdir(), 'sluice-etcd-'));
  const clientPort = await freePort();
  let peerPort = await freePort();
  while (peerPort === clientPort) peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'sluice-test',
    '--data-dir', dataDir,
    '--listen-client-urls', endpoint,
    '--advertise-client-urls', endpoint,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `sluice-test=${peer}`,
    '--logger', 'zap',
    '--log-level', 'warn',
  ];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  let out = '';
  const killOnExit = (): void => { child?.kill('SIGKILL'); };

  const isRunning = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;

  const start = async (): Promise<void> => {
    if (isRunning()) return;
    out = '';
    const c = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    const append = (d: Buffer): void => { out = (out + d.toString()).slice(-20_000); };
    c.stdout?.on('data', append);
    c.stderr?.on('data', append);
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    process.once('exit', killOnExit);
    const deadline = Date.now() + readyTimeoutMs;
    for (;;) {
      if (!isRunning()) throw new Error(`etcd exited while starting:\n${out}`);
      try {
        const res = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
        const body = (await res.json()) as { health?: string };
        if (body.health === 'true') return;
      } catch { /* not up yet */ }
      if (Date.now() > deadline) {
        c.kill('SIGKILL');
        throw new Error(`etcd did not become healthy within ${readyTimeoutMs} ms:\n${out}`);
      }
      await sleep(50);
    }
  };

  const signalAndWait = async (signal: NodeJS.Signals): Promise<void> => {
    if (!isRunning()) return;
    child?.kill(signal);
    const timer = setTimeout(() => child?.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    process.removeListener('exit', killOnExit);
  };

  await start();
  return {
    endpoint,
    clientPort,
    dataDir,
    get running() { return isRunning(); },
    output: () => out,
    start,
    stop: () => signalAndWait('SIGTERM'),
    kill: () => signalAndWait('SIGKILL'),
    close: async () => {
      await signalAndWait('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
