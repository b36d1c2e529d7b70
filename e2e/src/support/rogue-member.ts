// A rogue process on the agents' network: it knows the protocol (it uses the library's own client,
// server and packet codec) and the agents' addresses, and tries to crash them, set their limits and
// join their group. Run as `node rogue-member.js <plan JSON>`; it prints one JSON line of what it
// did and saw, then exits. A plan with `key` signs with that key (a holder of the group key whom
// discovery does not list); without, it signs nothing.
import dgram from 'node:dgram';
import net from 'node:net';
import { Keyring, OpsServer, PacketSealer, PeerClient, encodePacket, splitHostPort, type MembershipMessage } from '@sluice/distcache';

export interface RoguePlan {
  attack: 'flood' | 'give' | 'take' | 'join' | 'spoof-left' | 'resurrect';
  group: string;
  /** Agents' counter addresses and membership addresses. */
  ops: string[];
  gossip: string[];
  /** The bucket key a give or take aims at, and the member a spoof names. */
  bucket?: string;
  victim?: { id: string; gossipAddr: string; opsAddr: string };
  key?: string;
  durationMs: number;
}

const PARAMS = { capacity: 5, fillAmount: 0, intervalMs: 3_600_000, continuousFill: false };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function flood(plan: RoguePlan): Promise<Record<string, number>> {
  // 4096 new keys a batch, batch after batch on every connection the agents accept
  let batches = 0, closed = 0, answered = 0;
  const end = Date.now() + plan.durationMs;
  let n = 0;
  while (Date.now() < end) {
    await Promise.all(plan.ops.map(async (addr) => {
      const c = new PeerClient(addr, plan.key === undefined ? {} : { keys: new Keyring([Buffer.from(plan.key)]) });
      const calls = Array.from({ length: 4096 }, () => c.call({ o: 'take', k: `flood|${n++}-${'x'.repeat(400)}`, n: 1, p: PARAMS }, 2000));
      batches++;
      const res = await Promise.allSettled(calls);
      if (res.some((r) => r.status === 'rejected')) closed++;
      answered += res.filter((r) => r.status === 'fulfilled').length;
      c.close();
    }));
  }
  return { batches, closed, answered, keys: n };
}

async function giveOrTake(plan: RoguePlan): Promise<Record<string, number>> {
  let ok = 0, failed = 0;
  const clients = plan.ops.map((a) => new PeerClient(a, plan.key === undefined ? {} : { keys: new Keyring([Buffer.from(plan.key)]) }));
  const end = Date.now() + plan.durationMs;
  while (Date.now() < end) {
    await Promise.all(clients.map(async (c) => {
      try {
        const r = await c.call(plan.attack === 'give'
          ? { o: 'give', k: plan.bucket ?? '', n: 5, p: PARAMS }
          : { o: 'take', k: plan.bucket ?? '', n: 5, p: PARAMS }, 500);
        if ('err' in r) failed++;
        else ok++;
      } catch {
        failed++;
      }
    }));
    await sleep(10);
  }
  for (const c of clients) c.close();
  return { ok, failed };
}

/** Sends `msg` as member `from` to every membership address, over UDP and (a sync) over TCP. */
function sender(plan: RoguePlan, udp: dgram.Socket) {
  const sealer = plan.key === undefined ? undefined : new PacketSealer(new Keyring([Buffer.from(plan.key)]));
  return (from: { id: string; gossipAddr: string }, msg: MembershipMessage): void => {
    const plain = encodePacket(plan.group, from, msg);
    const bytes = sealer === undefined ? plain : sealer.seal(plain, Date.now());
    for (const to of plan.gossip) {
      const { host, port } = splitHostPort(to);
      udp.send(bytes, port, host);
      if (msg.t === 'sync') {
        const s = net.connect({ host, port });
        s.on('error', () => s.destroy());
        const head = Buffer.alloc(4);
        head.writeUInt32BE(bytes.length);
        s.end(Buffer.concat([head, bytes]));
      }
    }
  };
}

async function join(plan: RoguePlan): Promise<Record<string, number>> {
  // a counter port that answers every take "allowed", and a membership socket that acks every probe
  let served = 0;
  const ops = new OpsServer({ handler: (op) => (served++, op.o === 'take' ? { ok: true, rem: 1e9, cur: 1e9, wait: 0 } : { done: true }) });
  const opsPort = await ops.listen('127.0.0.1', 0);
  const udp = dgram.createSocket('udp4');
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  const me = { id: `rogue-${process.pid}`, gossipAddr: `127.0.0.1:${udp.address().port}`, opsAddr: `127.0.0.1:${opsPort}` };
  const ghost = { id: `ghost-${process.pid}`, gossipAddr: '127.0.0.1:9', opsAddr: `127.0.0.1:${opsPort}` };
  const send = sender(plan, udp);
  let acks = 0;
  udp.on('message', () => acks++);
  const end = Date.now() + plan.durationMs;
  for (let i = 1; Date.now() < end; i++) {
    const members = [{ ...me, incarnation: i, state: 'alive' as const }, { ...ghost, incarnation: i, state: 'alive' as const }];
    send(me, { t: 'sync', reply: false, members });
    send(me, { t: 'gossip', gossip: members });
    await sleep(100);
  }
  udp.close();
  await ops.close();
  return { served, packetsReceived: acks };
}

async function spoofLeft(plan: RoguePlan): Promise<Record<string, number>> {
  const udp = dgram.createSocket('udp4');
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  const send = sender(plan, udp);
  const v = plan.victim as NonNullable<RoguePlan['victim']>;
  let sent = 0;
  const end = Date.now() + plan.durationMs;
  while (Date.now() < end) {
    send({ id: v.id, gossipAddr: v.gossipAddr }, { t: 'gossip', gossip: [{ ...v, incarnation: Number.MAX_SAFE_INTEGER, state: 'left' }] });
    send({ id: v.id, gossipAddr: v.gossipAddr }, { t: 'gossip', gossip: [{ ...v, incarnation: 2 ** 52 - 1, state: 'left' }] });
    sent += 2;
    await sleep(200);
  }
  udp.close();
  return { sent };
}

async function resurrect(plan: RoguePlan): Promise<Record<string, number>> {
  const udp = dgram.createSocket('udp4');
  await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()));
  const send = sender(plan, udp);
  const v = plan.victim as NonNullable<RoguePlan['victim']>;
  let sent = 0;
  const end = Date.now() + plan.durationMs;
  while (Date.now() < end) {
    // the victim (a member that died) handed back dead and alive at its old incarnation, from a "peer"
    send({ id: 'peer', gossipAddr: '127.0.0.1:9' }, { t: 'sync', reply: true, members: [{ ...v, incarnation: 1, state: 'dead' }] });
    send({ id: 'peer', gossipAddr: '127.0.0.1:9' }, { t: 'sync', reply: true, members: [{ ...v, incarnation: 1, state: 'alive' }] });
    sent += 2;
    await sleep(200);
  }
  udp.close();
  return { sent };
}

const plan = JSON.parse(process.argv[2] ?? '{}') as RoguePlan;
const run = { flood, give: giveOrTake, take: giveOrTake, join, 'spoof-left': spoofLeft, resurrect }[plan.attack];
process.stdout.write(`${JSON.stringify({ attack: plan.attack, ...(await run(plan)) })}\n`);
process.exit(0);
