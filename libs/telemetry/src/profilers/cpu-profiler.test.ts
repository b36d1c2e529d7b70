import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { SluiceError } from '@sluice/errors';
import { profilesDirectory, startCpuProfiler } from './cpu-profiler.js';
import { profilersRouter } from './router.js';
import { decodeProfile } from './test-decode.js';
import { serve } from '../test-server.js';
import { tempDir } from '../log/test-helpers.js';

test('cpu_profiler false starts nothing', () => {
  assert.equal(startCpuProfiler({ cpu_profiler: false, profiles_path: 'default', register_http_routes: true }, 'agent'), undefined);
});

test('profiles_path default is /var/log/sluice/<service>/profiles', () => {
  const config = { cpu_profiler: true, profiles_path: 'default', register_http_routes: true };
  assert.equal(profilesDirectory(config, 'agent'), '/var/log/sluice/agent/profiles');
  assert.equal(profilesDirectory(config, 'controller'), '/var/log/sluice/controller/profiles');
  assert.equal(profilesDirectory({ ...config, profiles_path: '/tmp/p' }, 'agent'), '/tmp/p');
});

test('cpu_profiler profiles from start, blocks the HTTP endpoint with 409, and writes <service>-cpu-<time>.pprof on stop', async (t) => {
  const dir = join(tempDir(t), 'nested', 'profiles');
  const config = { cpu_profiler: true, profiles_path: dir, register_http_routes: true };
  const handle = startCpuProfiler(config, 'controller');
  assert.ok(handle);
  t.after(() => handle.stop().then(() => undefined));
  assert.ok(existsSync(dir), 'the directory is created');
  const base = await serve(t, profilersRouter(config));
  const res = await fetch(`${base}/debug/pprof/profile?seconds=1`);
  assert.equal(res.status, 409);
  assert.match(((await res.json()) as { message: string }).message, /profilers\.cpu_profiler/);
  assert.throws(() => startCpuProfiler(config, 'controller'), (err: unknown) => err instanceof SluiceError && err.httpStatus === 409);

  const file = await handle.stop();
  assert.equal(await handle.stop(), file, 'stop is idempotent');
  assert.equal(join(dir, basename(file)), file);
  assert.match(basename(file), /^controller-cpu-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z\.pprof$/);
  const { sampleTypes } = decodeProfile(readFileSync(file));
  assert.ok(sampleTypes.includes('wall/nanoseconds'));

  const after = await fetch(`${base}/debug/pprof/profile?seconds=1`);
  assert.equal(after.status, 200, 'the endpoint works once the profiler stopped');
  await after.arrayBuffer();
});

test('a profiles_path that cannot be created is refused before profiling starts', (t) => {
  const blocker = join(tempDir(t), 'file');
  writeFileSync(blocker, 'x');
  const config = { cpu_profiler: true, profiles_path: join(blocker, 'profiles'), register_http_routes: true };
  assert.throws(() => startCpuProfiler(config, 'agent'), (err: unknown) => err instanceof SluiceError && /cannot create the profiles directory/.test(err.message));
  const handle = startCpuProfiler({ ...config, profiles_path: join(tempDir(t), 'ok') }, 'agent');
  assert.ok(handle, 'the failed attempt did not keep the profiler');
  return handle.stop().then(() => undefined);
});
