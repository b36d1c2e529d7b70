import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { readCgroupUsage } from './cgroup-usage.js';
import { readHeapUsage } from './heap-usage.js';
import { readSystemUsage } from './system-usage.js';
import { garbageCollector } from './force-gc.js';

async function tempDir(t: { after: (fn: () => Promise<void>) => void }): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sluice-cgroup-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('heap usage comes from V8, against the configured limit or V8 own limit', () => {
  const u = readHeapUsage(256 * 1024 * 1024);
  assert.ok(u.used > 0);
  assert.equal(u.limit, 256 * 1024 * 1024);
  assert.ok(readHeapUsage(0).limit > u.used);
});

test('the real cgroup files of this machine parse', async () => {
  const u = await readCgroupUsage();
  const v2 = existsSync('/sys/fs/cgroup/memory.current');
  const v1 = existsSync('/sys/fs/cgroup/memory/memory.usage_in_bytes');
  if (!v2 && !v1) {
    assert.equal(u, undefined);
    return;
  }
  assert.ok(u);
  assert.equal(u.source, v2 ? 'cgroup v2' : 'cgroup v1');
  assert.ok(u.used > 0);
  assert.ok(u.limit > 0);
});

test('cgroup v2: memory.max "max" is no limit, a number is the limit', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, 'memory.current'), '1048576\n');
  await writeFile(path.join(dir, 'memory.max'), 'max\n');
  assert.deepEqual(await readCgroupUsage(dir), { used: 1048576, limit: Infinity, source: 'cgroup v2' });
  await writeFile(path.join(dir, 'memory.max'), '4194304\n');
  assert.deepEqual(await readCgroupUsage(dir), { used: 1048576, limit: 4194304, source: 'cgroup v2' });
});

test('cgroup v1: limit_in_bytes, with the huge "unlimited" value meaning no limit', async (t) => {
  const dir = await tempDir(t);
  await mkdir(path.join(dir, 'memory'));
  await writeFile(path.join(dir, 'memory', 'memory.usage_in_bytes'), '2000\n');
  await writeFile(path.join(dir, 'memory', 'memory.limit_in_bytes'), '9223372036854771712\n');
  assert.deepEqual(await readCgroupUsage(dir), { used: 2000, limit: Infinity, source: 'cgroup v1' });
  await writeFile(path.join(dir, 'memory', 'memory.limit_in_bytes'), '8000\n');
  assert.deepEqual(await readCgroupUsage(dir), { used: 2000, limit: 8000, source: 'cgroup v1' });
});

test('cgroup: no files means undefined, garbage is an error', async (t) => {
  const dir = await tempDir(t);
  assert.equal(await readCgroupUsage(dir), undefined);
  await writeFile(path.join(dir, 'memory.current'), 'lots\n');
  await assert.rejects(readCgroupUsage(dir), /unexpected content .*memory.current/);
});

test('the real /proc/meminfo parses: used = MemTotal - MemAvailable', async () => {
  const u = await readSystemUsage();
  assert.equal(u.source, existsSync('/proc/meminfo') ? '/proc/meminfo' : 'os');
  assert.ok(u.used > 0 && u.used < u.limit);
  assert.ok(Math.abs(u.limit - os.totalmem()) < 64 * 1024 * 1024);
});

test('system usage falls back to os when MemAvailable is missing', async (t) => {
  const dir = await tempDir(t);
  const file = path.join(dir, 'meminfo');
  await writeFile(file, 'MemTotal:       1000 kB\nMemFree:        10 kB\n');
  assert.equal((await readSystemUsage(file)).source, 'os');
  await writeFile(file, 'MemTotal:       1000 kB\nMemFree:        10 kB\nMemAvailable:    250 kB\n');
  assert.deepEqual(await readSystemUsage(file), { used: 750 * 1024, limit: 1000 * 1024, source: '/proc/meminfo' });
});

test('a garbage collection can be forced without --expose-gc', async () => {
  const { gc, source } = garbageCollector();
  assert.equal(source, typeof (globalThis as { gc?: unknown }).gc === 'function' ? 'global' : 'v8-flag');
  let ref: WeakRef<object> | undefined;
  (() => { ref = new WeakRef({ payload: new Array(1000).fill(1) }); })();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(ref?.deref(), undefined, 'the unreachable object was collected');
});
