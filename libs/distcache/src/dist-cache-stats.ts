import type { MemberState } from './member.js';

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
  handovers: number;
  droppedPackets: number;
  /** Why this member's own packets seem dropped by the group, or null. */
  selfProblem: string | null;
  /** Buckets held (owned and replicas) and their estimated bytes. */
  buckets: number;
  bucketBytes: number;
}
