import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Ring } from './ring.js';

const KEYS = Array.from({ length: 10_000 }, (_, i) => `policy-a/root.0/user-${i}`);
const memberId = fc.stringMatching(/^[a-z0-9-]{4,20}$/);
const memberSet = (n: number) => fc.uniqueArray(memberId, { minLength: n, maxLength: n });

function counts(ring: Ring): Map<string, number> {
  const c = new Map<string, number>(ring.members.map((m) => [m, 0]));
  for (const k of KEYS) {
    const o = ring.owner(k);
    assert.ok(o !== undefined);
    c.set(o, (c.get(o) ?? 0) + 1);
  }
  return c;
}

test('5 members each own their even share of the hash space within 10% (exact arcs, not a sample of keys)', () => {
  fc.assert(
    fc.property(memberSet(5), (ids) => {
      const shares = new Ring(ids).shares();
      assert.equal(shares.size, 5);
      let total = 0;
      for (const [m, s] of shares) {
        total += s;
        assert.ok(Math.abs(s * 5 - 1) <= 0.1, `${m} owns ${(s * 100).toFixed(2)}% of the hash space`);
      }
      assert.ok(Math.abs(total - 1) < 1e-9, `shares add up to ${total}`);
    }),
    { numRuns: 40 },
  );
});

test('keys land on members in proportion to their exact shares', () => {
  const ring = new Ring(['agent-a', 'agent-b', 'agent-c', 'agent-d', 'agent-e']);
  const c = counts(ring);
  for (const [m, share] of ring.shares()) {
    const observed = (c.get(m) ?? 0) / KEYS.length;
    // 5 standard deviations of a sample of 10,000 keys
    const tolerance = 5 * Math.sqrt((share * (1 - share)) / KEYS.length);
    assert.ok(Math.abs(observed - share) <= tolerance, `${m}: ${observed} of the keys for a share of ${share}`);
  }
  assert.deepEqual([...new Ring([]).shares()], []);
  assert.deepEqual([...new Ring(['solo']).shares()], [['solo', 1]]);
});

test('a joining member takes keys only for itself, about 1/(n+1) of them', () => {
  fc.assert(
    fc.property(memberSet(5), (ids) => {
      const before = new Ring(ids.slice(0, 4));
      const after = new Ring(ids);
      let moved = 0;
      for (const k of KEYS) {
        const a = before.owner(k);
        const b = after.owner(k);
        if (a !== b) {
          moved++;
          assert.equal(b, ids[4], `key ${k} moved from ${a} to ${b}, not to the joining member`);
        }
      }
      // what moves is the newcomer's share (about 1/5), up to the noise of a sample of keys
      const share = after.shares().get(ids[4]) ?? 0;
      assert.ok(share <= 0.2 * 1.1, `the newcomer owns ${share} of the hash space`);
      assert.ok(moved / KEYS.length <= share + 5 * Math.sqrt((share * (1 - share)) / KEYS.length), `moved ${moved} for a share of ${share}`);
      assert.ok(moved > 0);
    }),
    { numRuns: 10 },
  );
});

test('a leaving member gives away only its own keys', () => {
  fc.assert(
    fc.property(memberSet(5), fc.nat(4), (ids, gone) => {
      const before = new Ring(ids);
      const after = new Ring(ids.filter((_, i) => i !== gone));
      for (const k of KEYS) {
        const a = before.owner(k);
        if (a !== ids[gone]) assert.equal(after.owner(k), a);
        else assert.notEqual(after.owner(k), ids[gone]);
      }
    }),
    { numRuns: 10 },
  );
});

test('owners lists the owner first then distinct replicas, capped at the member count', () => {
  const r = new Ring(['a', 'b', 'c']);
  for (const k of KEYS.slice(0, 200)) {
    const o = r.owners(k, 2);
    assert.equal(o.length, 2);
    assert.equal(o[0], r.owner(k));
    assert.notEqual(o[0], o[1]);
    assert.equal(new Set(r.owners(k, 9)).size, 3);
  }
  assert.deepEqual(new Ring([]).owners('x', 2), []);
  assert.equal(new Ring([]).owner('x'), undefined);
  assert.deepEqual(new Ring(['z']).owners('x', 0), ['z']);
});

test('rings of the same members place every key alike, whatever the order', () => {
  const a = new Ring(['m1', 'm2', 'm3']);
  const b = new Ring(['m3', 'm1', 'm2', 'm1']);
  assert.ok(a.sameAs(b));
  for (const k of KEYS.slice(0, 500)) assert.equal(a.owner(k), b.owner(k));
});

test('owners remembered per ring are the placement itself, past the cache size and for a new ring', () => {
  const a = new Ring(['agent-a', 'agent-b', 'agent-c']);
  const keys = Array.from({ length: 25_000 }, (_, i) => `lim|user-${i}`);
  for (let round = 0; round < 2; round++) {
    for (const k of keys) assert.equal(a.owner(k), a.owners(k, 2)[0], k); // owners(k, 2) asks the library's range
  }
  const b = new Ring(['agent-a', 'agent-b']);
  for (const k of keys.slice(0, 2000)) {
    assert.equal(b.owner(k), b.owners(k, 2)[0], k);
    assert.ok(b.owner(k) !== 'agent-c');
  }
  assert.equal(new Ring([]).owner('x'), undefined);
});
