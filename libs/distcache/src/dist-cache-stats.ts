import type { MemberState } from './membership/member.js';
import type { Membership } from './membership/membership.js';
import type { Ring } from './ring/ring.js';
import type { BucketTable } from './store/bucket-table.js';
import type { CacheCounters } from './cache-counters.js';

/** A member as this one sees it, itself included. */
export interface MemberInfo {
  id: string;
  state: MemberState | 'self';
  incarnation: number;
  gossipAddr: string;
  opsAddr: string;
  inRing: boolean;
}

/** What `GET /v1/distcache/stats` reports. */
export interface DistCacheStats {
  id: string;
  group: string;
  members: MemberInfo[];
  ring: readonly string[];
  keysOwned: number;
  replicasHeld: number;
  operations: { local: number; remote: number; served: number };
  fallbacks: number;
  /** Fallbacks that admitted (on this agent's share). */
  fallbacksAdmitted: number;
  handovers: number;
  droppedPackets: number;
  /** Why this member's own packets seem dropped by the group, or null. */
  selfProblem: string | null;
  /** Buckets held (owned and replicas) and their estimated bytes. */
  buckets: number;
  bucketBytes: number;
}

/** What a member's stats are made of. */
export interface StatsSources {
  id: string;
  group: string;
  gossipAddr: string;
  opsAddr: string;
  membership: Membership | undefined;
  ring: Ring;
  table: BucketTable;
  counts: CacheCounters;
  selfProblem: string | undefined;
}

export function collectStats(s: StatsSources): DistCacheStats {
  const members: MemberInfo[] = [{ id: s.id, state: 'self', incarnation: s.membership?.currentIncarnation ?? 0, gossipAddr: s.gossipAddr, opsAddr: s.opsAddr, inRing: true }];
  for (const m of s.membership?.view() ?? []) {
    members.push({ id: m.id, state: m.state, incarnation: m.incarnation, gossipAddr: m.gossipAddr, opsAddr: m.opsAddr, inRing: s.ring.has(m.id) });
  }
  return {
    id: s.id,
    group: s.group,
    members,
    ring: s.ring.members,
    keysOwned: s.table.count('owner'),
    replicasHeld: s.table.count('replica'),
    operations: { local: s.counts.local, remote: s.counts.remote, served: s.counts.served },
    fallbacks: s.counts.fallbacks,
    fallbacksAdmitted: s.counts.fallbacksAdmitted,
    handovers: s.counts.handovers,
    droppedPackets: s.counts.dropped,
    selfProblem: s.selfProblem ?? null,
    buckets: s.table.size,
    bucketBytes: s.table.bytes,
  };
}
