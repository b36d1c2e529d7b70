import { test } from 'node:test';
import assert from 'node:assert/strict';
import { profilersRouter } from './router.js';
import { decodeProfile } from './test-decode.js';
import { serve } from '../test-server.js';

const ON = { cpu_profiler: false, profiles_path: 'default', register_http_routes: true };

/** Keeps the event loop busy with JS for a while so the profile has samples. */
function burn(ms: number): void {
  const end = Date.now() + ms;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  assert.ok(x > 0);
}

test('register_http_routes false mounts no routes', async (t) => {
  const base = await serve(t, profilersRouter({ ...ON, register_http_routes: false }));
  for (const path of ['/debug/pprof/', '/debug/pprof/profile?seconds=1', '/debug/pprof/cmdline', '/debug/pprof/symbol', '/debug/pprof/heap']) {
    const res = await fetch(`${base}${path}`);
    assert.equal(res.status, 404, path);
    await res.arrayBuffer();
  }
});

test('/debug/pprof/profile?seconds=1 answers a real gzipped pprof CPU profile; a second one at the same time gets 409', async (t) => {
  const base = await serve(t, profilersRouter(ON));
  const started = Date.now();
  const pending = fetch(`${base}/debug/pprof/profile?seconds=1`);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const busy = await fetch(`${base}/debug/pprof/profile?seconds=1`);
  assert.equal(busy.status, 409);
  const busyBody = (await busy.json()) as { code: number; message: string };
  assert.equal(busyBody.code, 10);
  assert.match(busyBody.message, /already being taken/);
  burn(300);
  const res = await pending;
  assert.equal(res.status, 200);
  assert.ok(Date.now() - started >= 1000);
  assert.equal(res.headers.get('content-type'), 'application/octet-stream');
  const data = new Uint8Array(await res.arrayBuffer());
  assert.equal(Buffer.from(data.subarray(0, 2)).toString('hex'), '1f8b');
  const { profile, sampleTypes, functions } = decodeProfile(data);
  assert.ok(sampleTypes.includes('wall/nanoseconds'), sampleTypes.join(','));
  assert.ok(profile.sample.length > 0);
  assert.ok(functions.includes('burn'), 'the busy function shows up in the profile');
  const again = await fetch(`${base}/debug/pprof/profile?seconds=1`);
  assert.equal(again.status, 200, 'the profiler is free again afterwards');
  await again.arrayBuffer();
});

test('a bad seconds value is a 400 in the gateway shape', async (t) => {
  const base = await serve(t, profilersRouter(ON));
  for (const bad of ['0', '301', 'abc', '1.5', '-1', '', '99999', 'seconds=1&seconds=2']) {
    const query = bad.startsWith('seconds=') ? bad : `seconds=${encodeURIComponent(bad)}`;
    const res = await fetch(`${base}/debug/pprof/profile?${query}`);
    assert.equal(res.status, 400, bad);
    const body = (await res.json()) as { code: number; message: string; details: unknown[] };
    assert.equal(body.code, 3);
    assert.match(body.message, /seconds must be/);
    assert.ok(Array.isArray(body.details));
  }
});

test('/debug/pprof/cmdline is the NUL-separated command line', async (t) => {
  const base = await serve(t, profilersRouter(ON));
  const res = await fetch(`${base}/debug/pprof/cmdline`);
  assert.equal(res.status, 200);
  assert.match(String(res.headers.get('content-type')), /^text\/plain/);
  const args = (await res.text()).split('\0');
  assert.equal(args[0], process.argv[0]);
  assert.ok(args.includes(process.argv[1]));
});

test('/debug/pprof/symbol follows the symbol protocol; an oversized POST is 413', async (t) => {
  const base = await serve(t, profilersRouter(ON));
  const get = await fetch(`${base}/debug/pprof/symbol`);
  assert.equal(get.status, 200);
  assert.equal(await get.text(), 'num_symbols: 1\n');
  const post = await fetch(`${base}/debug/pprof/symbol`, { method: 'POST', body: '0x4005d0+0x400620' });
  assert.equal(post.status, 200);
  assert.equal(await post.text(), 'num_symbols: 1\n');
  const big = await fetch(`${base}/debug/pprof/symbol`, { method: 'POST', body: '0x1+'.repeat(20_000) });
  assert.equal(big.status, 413);
  assert.equal(((await big.json()) as { code: number }).code, 8);
});

test('/debug/pprof/heap answers a sampled heap profile; the index lists the profiles; unknown names are 404', async (t) => {
  const base = await serve(t, profilersRouter(ON));
  const keep = Array.from({ length: 20_000 }, (_, i) => ({ i, s: `value-${i}` }));
  const heap = await fetch(`${base}/debug/pprof/heap`);
  assert.equal(heap.status, 200);
  const { sampleTypes } = decodeProfile(new Uint8Array(await heap.arrayBuffer()));
  assert.ok(sampleTypes.includes('inuse_space/bytes'), sampleTypes.join(','));
  assert.ok(keep.length > 0);
  const index = await fetch(`${base}/debug/pprof/`);
  assert.match(await index.text(), /profile[\s\S]*heap[\s\S]*symbol[\s\S]*cmdline/);
  const unknown = await fetch(`${base}/debug/pprof/goroutine`);
  assert.equal(unknown.status, 404);
  const body = (await unknown.json()) as { code: number; message: string };
  assert.equal(body.code, 5);
  assert.match(body.message, /unknown profile/);
});
