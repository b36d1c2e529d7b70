import HashRing from 'hashring';

/**
 * Virtual nodes per member (each is 4 points on the ketama continuum). With
 * 512, each of 5 members owns its even share of the hash space within 10%:
 * the exact arcs (Ring.shares) of 1,000 random member sets were at most
 * 6.7% off (see ring.test.ts, which checks every generated set). A sample
 * of 10,000 keys adds about ±2% of noise on top, which is why counting keys
 * once looked like 11%. 1024 halves the spread but triples the build time of
 * a ring (on every membership change); 40, the library's default, is off by
 * up to 20%.
 */
export const RING_VNODES = 512;

/** Keys whose owner a ring remembers (then it forgets them all and starts again). */
const OWNER_CACHE_KEYS = 10_000;

/**
 * The consistent-hash ring over the members that hold buckets (placement is
 * the `hashring` package, ketama-compatible). Immutable: a membership change
 * builds a new ring, so an in-flight lookup never sees half a change.
 */
export class Ring {
  readonly members: readonly string[];
  private readonly ring: HashRing | undefined;
  /**
   * Owner by key, for this ring only (a membership change makes a new ring,
   * so the cache never outlives the placement it remembers). A Map lookup
   * instead of the library's hash of the key and LRU bookkeeping per take.
   */
  private readonly ownerCache = new Map<string, string>();

  constructor(members: Iterable<string>, vnodes = RING_VNODES) {
    this.members = [...new Set(members)].sort();
    if (this.members.length === 0) {
      this.ring = undefined;
      return;
    }
    const servers: Record<string, { vnodes: number }> = {};
    for (const m of this.members) servers[m] = { vnodes };
    this.ring = new HashRing(servers, 'md5', { 'max cache size': 10_000 });
  }

  /** The owner of `key` then its replicas: up to `count` distinct members (empty when the ring is). */
  owners(key: string, count: number): string[] {
    if (this.ring === undefined) return [];
    const n = Math.max(1, Math.min(count, this.members.length));
    if (n === 1) {
      const o = this.owner(key);
      return o === undefined ? [] : [o];
    }
    return this.ring.range(key, n, true);
  }

  owner(key: string): string | undefined {
    const known = this.ownerCache.get(key);
    if (known !== undefined || this.ring === undefined) return known;
    const o = this.ring.get(key);
    if (o === undefined) return undefined;
    if (this.ownerCache.size >= OWNER_CACHE_KEYS) this.ownerCache.clear();
    this.ownerCache.set(key, o);
    return o;
  }

  has(member: string): boolean {
    return this.members.includes(member);
  }

  /**
   * Each member's exact share of the hash space (0..1): a key goes to the
   * first point at or after its hash, so a point owns the arc from the point
   * before it. This is what the ring places, free of any sample of keys.
   */
  shares(): Map<string, number> {
    const out = new Map<string, number>(this.members.map((m) => [m, 0]));
    if (this.ring === undefined) return out;
    const points: Array<[number, string]> = [];
    for (const [m, values] of Object.entries(this.ring.points([...this.members]))) for (const v of values) points.push([v, m]);
    points.sort((a, b) => a[0] - b[0]);
    const SPACE = 2 ** 32;
    for (let i = 0; i < points.length; i++) {
      const [v, m] = points[i];
      const from = i === 0 ? points[points.length - 1][0] - SPACE : points[i - 1][0];
      out.set(m, (out.get(m) ?? 0) + (v - from) / SPACE);
    }
    return out;
  }

  /** Same members (then placement is identical). */
  sameAs(other: Ring): boolean {
    return this.members.length === other.members.length && this.members.every((m, i) => m === other.members[i]);
  }
}
