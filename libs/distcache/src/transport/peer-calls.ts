import { PeerClient } from './ops-client.js';
import type { Op, OpResult } from './ops.js';
import type { DistCacheMetrics } from '../metrics.js';
import type { Keyring } from './auth/index.js';
import { ErrorCode } from '@sluice/errors';

/** Operations sent to other members: one batching client per operations address, dialled on first use. */
export class PeerCalls {
  private readonly clients = new Map<string, PeerClient>();

  /** opsAddrOf: a member's operations address as the membership knows it (undefined: unknown member). */
  constructor(
    private readonly opsAddrOf: (member: string) => string | undefined,
    private readonly metrics: DistCacheMetrics,
    private readonly keys?: Keyring,
  ) {}

  call(member: string, op: Op, timeoutMs: number): Promise<OpResult> {
    const addr = this.opsAddrOf(member);
    if (addr === undefined) return Promise.reject(new Error(`unknown member ${member}`));
    let c = this.clients.get(addr);
    if (c === undefined) {
      c = new PeerClient(addr, {
        onBatch: (n) => this.metrics.batchSize.observe(n),
        keys: this.keys,
        onAuthFailure: () => this.metrics.authFailures.inc({ channel: 'ops_answer', reason: 'auth' }),
      });
      this.clients.set(addr, c);
    }
    this.metrics.operation(op.o, 'remote').inc();
    return c.call(op, timeoutMs);
  }

  /** Close the client of this address (its member left or died). */
  forget(addr: string): void {
    this.clients.get(addr)?.close();
    this.clients.delete(addr);
  }

  closeAll(): void {
    for (const c of this.clients.values()) c.close();
    this.clients.clear();
  }
}

/** Whether a call failed for want of an answer in time (not a refused or broken connection). */
export function isTimeout(e: unknown): boolean {
  return (e as { code?: string } | undefined)?.code === ErrorCode.DISTCACHE_TIMEOUT;
}
