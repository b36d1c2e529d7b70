import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** Path of the harness process's script. */
export const HARNESS_SCRIPT = fileURLToPath(new URL('./harness.js', import.meta.url));

export interface HarnessReady {
  id: string;
  gossipAddr: string;
  opsAddr: string;
}

/** A running harness process (tests and benches): send a command, get its answer. */
export class HarnessProcess {
  readonly child: ChildProcess;
  ready!: HarnessReady;
  private nextId = 1;
  private readonly waiting = new Map<number, (v: Record<string, unknown>) => void>();
  private readyWait: Promise<HarnessReady>;

  constructor(config: Record<string, unknown>) {
    // SLUICE_HARNESS_NODE_ARGS: extra node flags for the member processes (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p` to profile a bench)
    const extra = (process.env.SLUICE_HARNESS_NODE_ARGS ?? '').split(' ').filter((a) => a.length > 0);
    this.child = spawn(process.execPath, ['--enable-source-maps', ...extra, HARNESS_SCRIPT], {
      env: { ...process.env, SLUICE_DISTCACHE_HARNESS: JSON.stringify(config) },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let onReady!: (r: HarnessReady) => void;
    this.readyWait = new Promise((r) => (onReady = r));
    const rl = readline.createInterface({ input: this.child.stdout! });
    rl.on('line', (line) => {
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (msg.ready === true) {
        this.ready = msg as unknown as HarnessReady;
        onReady(this.ready);
        return;
      }
      const cb = typeof msg.id === 'number' ? this.waiting.get(msg.id) : undefined;
      if (cb !== undefined) {
        this.waiting.delete(msg.id as number);
        cb(msg);
      }
    });
  }

  started(): Promise<HarnessReady> {
    return this.readyWait;
  }

  send(cmd: Record<string, unknown>, timeoutMs = 30_000): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`harness ${this.ready?.id} did not answer ${JSON.stringify(cmd)}`));
      }, timeoutMs);
      this.waiting.set(id, (v) => {
        clearTimeout(t);
        resolve(v);
      });
      this.child.stdin!.write(`${JSON.stringify({ ...cmd, id })}\n`);
    });
  }

  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
  }

  exited(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.resolve();
    return new Promise((r) => this.child.once('exit', () => r()));
  }
}
