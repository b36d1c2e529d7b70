import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { FastCounter, FastHistogram, type FastCounterChild, type FastHistogramChild } from '@sluice/telemetry';

/** The distributed cache's metrics (registered on the given registry, or kept private). */
export class DistCacheMetrics {
  readonly members: Gauge<'state'>;
  readonly ringMembers: Gauge;
  readonly keys: Gauge<'role'>;
  /** Per-take series are fast ones: an observation is a bucket search and additions (prom-client hashes the labels each time). */
  readonly opDuration: FastHistogram<'op' | 'target'>;
  readonly batchSize: Histogram;
  readonly fallbacks: Counter<'reason' | 'mode'>;
  readonly fallbacksAdmitted: Counter<'reason'>;
  readonly handovers: Counter<'direction'>;
  readonly droppedPackets: Counter<'reason'>;
  readonly operations: FastCounter<'op' | 'target'>;
  readonly authFailures: Counter<'channel' | 'reason'>;
  readonly refusedConnections: Counter<'reason'>;
  readonly evictions: Counter<'reason'>;
  readonly bucketBytes: Gauge;
  readonly refutations: Counter;
  readonly refusedMembers: Counter;
  readonly selfDropped: Gauge;
  /** Takes on buckets held here (operations_total{op="take",target="local"}), bound once. */
  readonly localTakes: FastCounterChild;
  /** Take durations by where they ran, bound once (local takes are timed one in TIMED_LOCAL_TAKE_EVERY). */
  readonly takeDuration: Readonly<Record<'local' | 'remote', FastHistogramChild>>;
  private readonly opCounters = new Map<string, FastCounterChild>();

  constructor(registry?: Registry) {
    const registers = registry === undefined ? [] : [registry];
    this.members = new Gauge({ name: 'sluice_distcache_members', help: 'Members of the agent group by state, as this agent sees them.', labelNames: ['state'], registers });
    this.ringMembers = new Gauge({ name: 'sluice_distcache_ring_members', help: 'Members that hold buckets on the hash ring (this agent included).', registers });
    this.keys = new Gauge({ name: 'sluice_distcache_keys', help: 'Buckets this agent holds, as owner or replica.', labelNames: ['role'], registers });
    this.opDuration = new FastHistogram({
      name: 'sluice_distcache_operation_duration_seconds', help: 'Duration of counter operations.', labelNames: ['op', 'target'], registers,
      buckets: [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25],
    });
    this.batchSize = new Histogram({ name: 'sluice_distcache_batch_size', help: 'Operations per batch sent to a peer.', registers, buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 1024, 4096] });
    this.fallbacks = new Counter({ name: 'sluice_distcache_fallbacks_total', help: 'Decisions taken without the owner (it did not answer in time or failed).', labelNames: ['reason', 'mode'], registers });
    this.fallbacksAdmitted = new Counter({ name: 'sluice_distcache_fallback_admissions_total', help: 'Fallback decisions that admitted the flow (on this agent\'s share of the limit): the most a key can admit beyond its limit.', labelNames: ['reason'], registers });
    this.handovers = new Counter({ name: 'sluice_distcache_handovers_total', help: 'Buckets handed over on membership changes.', labelNames: ['direction'], registers });
    this.droppedPackets = new Counter({ name: 'sluice_distcache_dropped_packets_total', help: 'Membership packets dropped: malformed, of another group or protocol version.', labelNames: ['reason'], registers });
    this.operations = new FastCounter({ name: 'sluice_distcache_operations_total', help: 'Counter operations by kind and where they ran.', labelNames: ['op', 'target'], registers });
    this.authFailures = new Counter({ name: 'sluice_distcache_auth_failures_total', help: 'Membership packets and operations frames whose signature, stamp or nonce did not verify (channel: membership, ops, ops_answer).', labelNames: ['channel', 'reason'], registers });
    this.refusedConnections = new Counter({ name: 'sluice_distcache_refused_connections_total', help: 'Operations connections closed by this agent: auth, stale, replay, idle, truncated (a frame begun and not finished), limit (over max_connections), malformed.', labelNames: ['reason'], registers });
    this.evictions = new Counter({ name: 'sluice_distcache_bucket_evictions_total', help: 'Buckets dropped: idle (full again, nothing lost) or bound (over max_buckets or max_bucket_bytes: the bucket starts full when used again).', labelNames: ['reason'], registers });
    this.bucketBytes = new Gauge({ name: 'sluice_distcache_bucket_bytes', help: 'Estimated bytes of the buckets this agent holds.', registers });
    this.refusedMembers = new Counter({ name: 'sluice_distcache_refused_members_total', help: 'Membership updates of members no discovery source (etcd, Kubernetes) lists at their addresses, not learnt.', registers });
    this.refutations = new Counter({ name: 'sluice_distcache_refutations_total', help: 'Times this agent refuted a rumour that it is suspect, dead or left.', registers });
    this.selfDropped = new Gauge({ name: 'sluice_distcache_self_dropped', help: '1 while this agent sees its own packets refused by the group (its refutations do not hold, or packets claiming to be it fail authentication), else 0.', registers });
    this.localTakes = this.operations.child({ op: 'take', target: 'local' });
    this.takeDuration = { local: this.opDuration.child({ op: 'take', target: 'local' }), remote: this.opDuration.child({ op: 'take', target: 'remote' }) };
  }

  /** The operations counter of one kind and target, bound on first use. */
  operation(op: string, target: 'served' | 'remote'): FastCounterChild {
    const key = `${op}|${target}`;
    let c = this.opCounters.get(key);
    if (c === undefined) {
      c = this.operations.child({ op, target });
      this.opCounters.set(key, c);
    }
    return c;
  }
}
