import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EntityCache } from '@sluice/discovery';
import { InvalidArgumentError } from '@sluice/errors';
import { entitiesPage } from './entities-page.js';

function cache(n: number): EntityCache {
  const c = new EntityCache();
  for (let i = 0; i < n; i++) c.add({ ip_address: `10.0.0.${i + 1}`, uid: `u${i}`, services: [i % 2 ? 'odd.ns.svc.cluster.local' : 'even.ns.svc.cluster.local'] });
  return c;
}

test('pages through every entity once, in IP order, with next_page_token', () => {
  const c = cache(5);
  const seen: string[] = [];
  let token = '';
  let pages = 0;
  do {
    const p = entitiesPage(c, { limit: '2', page_token: token });
    assert.equal(p.total, 5);
    seen.push(...p.entities.map((e) => e.uid));
    token = p.next_page_token;
    pages++;
  } while (token !== '' && pages < 10);
  assert.deepEqual(seen, ['u0', 'u1', 'u2', 'u3', 'u4']);
  assert.equal(pages, 3);
  assert.equal(entitiesPage(c, {}).entities.length, 5);
});

test('service and ip narrow the list', () => {
  const c = cache(5);
  assert.deepEqual(entitiesPage(c, { service: 'odd.ns.svc.cluster.local' }).entities.map((e) => e.uid), ['u1', 'u3']);
  assert.deepEqual(entitiesPage(c, { ip: '::ffff:10.0.0.3' }).entities.map((e) => e.uid), ['u2']);
});

test('bad limits and tokens are InvalidArgumentErrors naming the field', () => {
  const c = cache(1);
  for (const [q, field] of [[{ limit: '0' }, 'limit'], [{ limit: '1001' }, 'limit'], [{ limit: 'x' }, 'limit'], [{ limit: ['1', '2'] }, 'limit'], [{ page_token: 'zz' }, 'page_token'], [{ page_token: Buffer.from('x:1').toString('base64url') }, 'page_token'], [{ service: ['a', 'b'] }, 'service']] as const) {
    assert.throws(() => entitiesPage(c, q), (e: unknown) => e instanceof InvalidArgumentError && e.field === field, JSON.stringify(q));
  }
});
