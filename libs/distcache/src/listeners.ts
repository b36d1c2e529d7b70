import { OpsServer, type OpHandler } from './ops-server.js';
import { GossipTransport } from './gossip-transport.js';
import { advertised, bindHost, splitHostPort } from './address.js';
import { DistCacheBindError } from './bind-error.js';
import type { DistCacheOptions } from './dist-cache-options.js';

/** Where a member listens, and what arrives there. */
export interface ListenOptions extends Pick<DistCacheOptions, 'bindAddr' | 'memberlistBindAddr' | 'advertiseAddr' | 'memberlistAdvertiseAddr'> {
  /** Serves the operations of other members. */
  handler: OpHandler;
  /** A membership packet arrived. */
  onPacket: (bytes: Buffer) => void;
  /** A malformed operations frame or membership packet. */
  onMalformed: () => void;
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
  const ops = new OpsServer({ handler: o.handler, onMalformed: o.onMalformed });
  let opsPort: number;
  try {
    opsPort = await ops.listen(bindHost(opsBind.host), opsBind.port);
  } catch (e) {
    throw new DistCacheBindError('bind_addr', o.bindAddr, e);
  }
  const gossip = new GossipTransport({ host: bindHost(mlBind.host), port: mlBind.port, onPacket: o.onPacket, onMalformed: o.onMalformed });
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
