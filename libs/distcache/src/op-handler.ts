import type { TakeResult, TokenBucketParams } from '@sluice/tokenbucket';
import type { Op, OpResult } from './transport/ops.js';
import { UNREACHED_ANSWER, type Unreached } from './handover/take-outcome.js';
import type { BucketTable } from './store/bucket-table.js';
import type { CacheCounters } from './cache-counters.js';
import type { DistCacheMetrics } from './metrics.js';
import type { Handover } from './handover/handover.js';

/** What serving other members' operations uses of this member. */
export interface PeerOpsHandlerHost {
  readonly table: BucketTable;
  readonly handovers: Handover;
  readonly counts: CacheCounters;
  readonly metrics: DistCacheMetrics;
  now(): number;
  /** A take on a key this member owns (it may first pull the key's state from the previous owner, who may not answer). */
  localTake(key: string, tokens: number, params: TokenBucketParams): TakeResult | Promise<TakeResult | Unreached>;
}

/** Serves the operations other members send to this one (the operations server's handler). */
export class PeerOpsHandler {
  constructor(private readonly host: PeerOpsHandlerHost) {}

  serve(op: Op): OpResult | Promise<OpResult> {
    const { host } = this;
    const { table } = host;
    host.counts.served++;
    host.metrics.operation(op.o, 'served').inc();
    const now = host.now();
    switch (op.o) {
      case 'ping':
        return { done: true };
      case 'take': {
        const r = host.localTake(op.k, op.n, op.p);
        const toRes = (t: TakeResult | Unreached): OpResult => ('unreached' in t ? { err: UNREACHED_ANSWER } : { ok: t.ok, rem: t.remaining, cur: t.current, wait: t.waitMs });
        return r instanceof Promise ? r.then(toRes) : toRes(r);
      }
      case 'give':
        table.giveBack(op.k, op.n);
        host.handovers.replicate(op.k, op.p);
        return { done: true };
      case 'read':
        return { s: table.snapshot(op.k, now) ?? null };
      case 'consume': {
        const finish = (): OpResult => ({ rem: table.consume(op.k, op.n, op.p, host.now()) });
        if (!table.has(op.k)) {
          const pulling = host.handovers.pullFromPrevious(op.k, op.p);
          if (pulling !== undefined) return pulling.then(() => finish());
        }
        return finish();
      }
      case 'replicate':
        table.putReplica(op.k, op.s, op.p, now);
        return { done: true };
      case 'handover':
        return host.handovers.receive(op.k, op.s, op.p, now);
      case 'pull':
        return host.handovers.servePull(op.k, now);
    }
  }
}
