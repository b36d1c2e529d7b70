// A network namespace made by a test, to cut one process off the network
// and let it back: two veth pairs into the root namespace, each on its own
// /30 of 10.213.0.0/16 used only by these tests. The "data" pair carries
// what a partition cuts (dist cache, etcd); the "control" pair stays up so
// that the test can still talk to the process inside (its gRPC and HTTP).
// A partition takes the root end of the data pair down (both directions go:
// the peer loses its carrier and both connected routes); healing sets it up
// again. Needs CAP_NET_ADMIN (root); `netnsUnavailable()` says why not.
import { execFileSync } from 'node:child_process';
import net from 'node:net';
import type { TestContext } from 'node:test';

/** One veth pair: its root-side and namespace-side interface names and addresses. */
export interface VethLink {
  readonly rootIf: string;
  readonly nsIf: string;
  readonly rootAddr: string;
  readonly nsAddr: string;
}

export interface Netns {
  readonly name: string;
  /** The link a partition cuts. */
  readonly data: VethLink;
  /** The link the test talks to the process through; never cut. */
  readonly control: VethLink;
  /** argv prefix that runs a command inside the namespace. */
  exec(argv: string[]): string[];
  /** Cuts the data link (both directions). */
  partition(): void;
  /** Restores the data link. */
  heal(): void;
}

const PREFIX = 'sluice-e2e-';
const LINK_RE = /^sl(\d+)[dc][rn]$/;

function ip(args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
}

function tryIp(args: string[]): void {
  try {
    ip(args);
  } catch { /* already gone */ }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Why this process cannot make network namespaces (a reason for `t.skip`),
 * or undefined when it can: it makes one and removes it.
 */
export function netnsUnavailable(): string | undefined {
  const probe = `${PREFIX}probe-${process.pid}`;
  try {
    ip(['netns', 'add', probe]);
  } catch (e) {
    const msg = (e as { stderr?: string; message: string }).stderr?.trim() || (e as Error).message;
    return `cannot make a network namespace (needs root or CAP_NET_ADMIN, and iproute2's ip): ${msg}`;
  }
  tryIp(['netns', 'del', probe]);
  return undefined;
}

/** Removes the namespaces and veth ends a killed run of these tests left behind (their pid is gone). */
export function removeLeftovers(): void {
  for (const line of ip(['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const m = new RegExp(`^${PREFIX}(?:probe-)?(\\d+)$`).exec(name);
    if (m !== null && !alive(Number(m[1]))) tryIp(['netns', 'del', name]);
  }
  for (const line of ip(['-o', 'link', 'show']).split('\n')) {
    const name = /^\d+: ([^:@]+)[@:]/.exec(line)?.[1];
    const m = name === undefined ? null : LINK_RE.exec(name);
    if (m !== null && name !== undefined && !alive(Number(m[1]))) tryIp(['link', 'del', name]);
  }
}

/** The first 10.213.<k>.0/24 no interface of the root namespace uses. */
function freeSubnet(): number {
  const used = new Set<number>();
  for (const m of ip(['-o', '-4', 'addr', 'show']).matchAll(/inet 10\.213\.(\d+)\./g)) used.add(Number(m[1]));
  const start = process.pid % 250;
  for (let i = 0; i < 250; i++) {
    const k = ((start + i) % 250) + 1;
    if (!used.has(k)) return k;
  }
  throw new Error('no free 10.213.<k>.0/24 for a test namespace');
}

/**
 * Makes a namespace `sluice-e2e-<pid>` with a data and a control veth pair
 * (10.213.<k>.0/30 and 10.213.<k>.4/30; the root ends are .1 and .5), each
 * up, loopback up inside. Removed in t.after (the namespace takes its veth
 * ends, and so their peers, with it), even when the test fails.
 */
export function makeNetns(t: TestContext): Netns {
  removeLeftovers();
  const name = `${PREFIX}${process.pid}`;
  tryIp(['netns', 'del', name]);
  const k = freeSubnet();
  const link = (kind: 'd' | 'c', base: number): VethLink => ({
    rootIf: `sl${process.pid}${kind}r`, nsIf: `sl${process.pid}${kind}n`,
    rootAddr: `10.213.${k}.${base + 1}`, nsAddr: `10.213.${k}.${base + 2}`,
  });
  const data = link('d', 0);
  const control = link('c', 4);
  const remove = (): void => {
    tryIp(['netns', 'del', name]);
    for (const l of [data, control]) tryIp(['link', 'del', l.rootIf]);
  };
  t.after(remove);
  try {
    ip(['netns', 'add', name]);
    ip(['-n', name, 'link', 'set', 'lo', 'up']);
    for (const l of [data, control]) {
      tryIp(['link', 'del', l.rootIf]);
      ip(['link', 'add', l.rootIf, 'type', 'veth', 'peer', 'name', l.nsIf]);
      ip(['link', 'set', l.nsIf, 'netns', name]);
      ip(['addr', 'add', `${l.rootAddr}/30`, 'dev', l.rootIf]);
      ip(['link', 'set', l.rootIf, 'up']);
      ip(['-n', name, 'addr', 'add', `${l.nsAddr}/30`, 'dev', l.nsIf]);
      ip(['-n', name, 'link', 'set', l.nsIf, 'up']);
    }
  } catch (e) {
    remove();
    throw e;
  }
  return {
    name, data, control,
    exec: (argv) => ['ip', 'netns', 'exec', name, ...argv],
    partition: () => { ip(['link', 'set', data.rootIf, 'down']); },
    heal: () => { ip(['link', 'set', data.rootIf, 'up']); },
  };
}

/**
 * A TCP forwarder in this process from `listenHost` (a port it picks) to
 * `target`: lets a process in the namespace reach a server that listens on
 * loopback only (etcd of the shared helper). Closed in t.after.
 */
export async function forwardTcp(t: TestContext, listenHost: string, target: { host: string; port: number }): Promise<{ host: string; port: number }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => { client.destroy(); upstream.destroy(); });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, listenHost, () => resolve());
  });
  t.after(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return { host: listenHost, port: (server.address() as net.AddressInfo).port };
}
