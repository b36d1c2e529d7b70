import type { Registry } from 'prom-client';
import type { MembershipOptions } from './membership/membership.js';
import type { Keyring } from './transport/auth/index.js';

/** Membership timings a member may override (tests and benches shorten them). */
export type MembershipTimings = Pick<MembershipOptions, 'probeIntervalMs' | 'probeTimeoutMs' | 'indirectChecks' | 'suspicionTimeoutMs' | 'syncIntervalMs' | 'reapAfterMs'>;

export interface DistCacheOptions {
  /**
   * This agent's id (unique in the group), or how to derive it from the
   * addresses the cache bound (when it is only known once they are: port 0).
   */
  id: string | ((bound: { opsAddr: string; gossipAddr: string }) => string);
  /** `agent_info.agent_group`: members of other groups never merge. */
  group: string;
  /** `dist_cache.bind_addr`. */
  bindAddr: string;
  /** `dist_cache.memberlist_bind_addr`. */
  memberlistBindAddr: string;
  /** `dist_cache.memberlist_advertise_addr` ('' = derived from the bound address). */
  memberlistAdvertiseAddr?: string;
  /** Advertised counter address ('' = derived from the bound address and the host's address). */
  advertiseAddr?: string;
  /** `dist_cache.replica_count`. Default 1. */
  replicaCount?: number;
  /** `dist_cache.sync_replication`. Default false. */
  syncReplication?: boolean;
  /**
   * How long an owner has to answer a take before the decision falls back
   * (not a configuration key: `dist_cache` has none). Default 100 ms:
   * well under the tap's 250 ms check deadline, and far above a take's
   * round trip on a healthy network (see the guide).
   */
  ownerTimeoutMs?: number;
  /** A new owner pulls a key's state from its previous owner for this long after a ring change. Default 5 s. */
  handoverWindowMs?: number;
  membership?: MembershipTimings;
  /**
   * `dist_cache.auth`: the group's keys. With them every membership packet
   * and every operations frame is signed and checked (unsigned ones are
   * dropped); without, nothing is (ports on loopback, or `insecure`).
   */
  keys?: Keyring;
  /**
   * Learn a member only when a discovery source (etcd's peer keys, the
   * Kubernetes API) lists a peer at its counter and membership addresses.
   * Default false (static seeds, tests).
   */
  admitOnlyPeers?: boolean;
  /** This member's own packets seem dropped by the group (a message), or no longer (undefined). */
  onSelfProblem?: (problem: string | undefined) => void;
  /** Bounds on what anyone who reaches the ports can make this member hold. */
  limits?: DistCacheLimits;
  registry?: Registry;
  /** The clock of the buckets (epoch ms). Default epochNowMs (@sluice/tokenbucket), the flow-control engine's clock. */
  now?: () => number;
}

/** `dist_cache` bounds (see the guide for what happens past each). */
export interface DistCacheLimits {
  /** Buckets held at most (owned and replicas); past it the longest idle go. Default 200,000. */
  maxBuckets?: number;
  /** Bytes of buckets held at most (keys and state, estimated); past it the longest idle go. Default 64 MiB. */
  maxBucketBytes?: number;
  /** Operations connections served at once. Default 1024. */
  maxConnections?: number;
  /** An operations connection idle this long is closed. Default 60 s. */
  idleTimeoutMs?: number;
}
