import { OpsServer, type OpHandler, type OpsRefusal } from './transport/ops-server.js';
import { HelloVerifier } from './transport/auth/index.js';
import { GossipTransport } from './membership/gossip-transport.js';
import { advertised, bindHost, splitHostPort } from './address.js';
import { DistCacheBindError } from './bind-error.js';
import type { DistCacheOptions } from './dist-cache-options.js';

/**
 * Full-state syncs served at once at most (one frame of up to 1 MiB each, for 5 s at most): a sync lasts
 * milliseconds and each member starts one every 5 s, so this is room for groups of thousands, and bounds
 * what strangers can make the membership port buffer to 128 MiB.
 */
const MAX_SYNCS = 128;

/** Where a member listens, and what arrives there. */
export interface ListenOptions extends Pick<DistCacheOptions, 'bindAddr' | 'memberlistBindAddr' | 'advertiseAddr' | 'memberlistAdvertiseAddr' | 'keys' | 'limits'> {
  /** Serves the operations of other members. */
  handler: OpHandler;
  /** A membership packet arrived. */
  onPacket: (bytes: Buffer) => void;
  /** A malformed operations frame or membership packet. */
  onMalformed: () => void;
  /** An operations connection closed or refused (auth, idle, truncated frame, over the bound). */
  onRefused: (why: OpsRefusal) => void;
}

/** A member's bound listeners and the addresses others dial. */
export interface Listeners {
  ops: OpsServer;
  gossip: GossipTransport;
  opsAddr: string;
  gossipAddr: string;
}

/** Binds both addresses (a DistCacheBindError names the one that failed, and nothing stays bound). */
export async function listen(o: ListenOptions): Promise<Listeners> {
  const opsBind = splitHostPort(o.bindAddr);
  const mlBind = splitHostPort(o.memberlistBindAddr);
  const ops = new OpsServer({
    handler: o.handler,
    onMalformed: o.onMalformed,
    onRefused: o.onRefused,
    auth: o.keys === undefined ? undefined : new HelloVerifier(o.keys),
    maxConnections: o.limits?.maxConnections,
    idleTimeoutMs: o.limits?.idleTimeoutMs,
  });
  let opsPort: number;
  try {
    opsPort = await ops.listen(bindHost(opsBind.host), opsBind.port);
  } catch (e) {
    throw new DistCacheBindError('bind_addr', o.bindAddr, e);
  }
  const gossip = new GossipTransport({ host: bindHost(mlBind.host), port: mlBind.port, onPacket: o.onPacket, onMalformed: o.onMalformed, maxConnections: Math.min(o.limits?.maxConnections ?? MAX_SYNCS, MAX_SYNCS) });
  let mlPort: number;
  try {
    mlPort = await gossip.start();
  } catch (e) {
    await ops.close();
    throw new DistCacheBindError('memberlist_bind_addr', o.memberlistBindAddr, e);
  }
  return {
    ops,
    gossip,
    opsAddr: advertised(o.advertiseAddr ?? '', opsBind.host, opsPort),
    gossipAddr: advertised(o.memberlistAdvertiseAddr ?? '', mlBind.host, mlPort),
  };
}
