import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Registry } from 'prom-client';
import { InvalidArgumentError } from '@sluice/errors';
import { createLogger } from './create-logger.js';
import type { LogConfig } from '../config.js';
import { resolveWriterTarget } from './writers.js';
import type { SluiceLogger } from './logger.js';
import { fileWriter, logConfig, readLines, tempDir } from './test-helpers.js';

const ALL = ['panic', 'fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

function emitAll(log: SluiceLogger): void {
  for (const level of ALL) log[level](`at ${level}`);
}

test('every spelling of log.level lets through exactly its level and the more severe ones', async (t) => {
  const dir = tempDir(t);
  const expected: Record<string, string[]> = {
    panic: ['panic'],
    fatal: ['panic', 'fatal'],
    error: ['panic', 'fatal', 'error'],
    warn: ['panic', 'fatal', 'error', 'warn'],
    info: ['panic', 'fatal', 'error', 'warn', 'info'],
    debug: ['panic', 'fatal', 'error', 'warn', 'info', 'debug'],
    trace: [...ALL],
  };
  for (const [name, levels] of Object.entries(expected)) {
    for (const spelling of [name, name.toUpperCase()]) {
      const file = join(dir, `${spelling}.log`);
      const log = createLogger(logConfig({ level: spelling as LogConfig['level'], writers: [fileWriter(file)] }), 'agent');
      emitAll(log);
      await log.close();
      const lines = readLines(file);
      assert.deepEqual(lines.map((l) => l.level), levels, `level ${spelling}`);
      assert.deepEqual(lines.map((l) => l.msg), levels.map((l) => `at ${l}`));
    }
  }
});

test('disabled (either case) writes nothing and does not even create the file', async (t) => {
  const dir = tempDir(t);
  for (const spelling of ['disabled', 'DISABLED']) {
    const file = join(dir, `${spelling}.log`);
    const log = createLogger(logConfig({ level: spelling as LogConfig['level'], non_blocking: true, writers: [fileWriter(file)] }), 'agent');
    emitAll(log);
    log.child({ a: 1 }).error('still nothing');
    await log.close();
    assert.equal(existsSync(file), false);
    assert.equal(log.level, 'disabled');
  }
});

test('an unknown level is refused before any writer opens', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'x.log');
  assert.throws(
    () => createLogger(logConfig({ level: 'verbose' as LogConfig['level'], writers: [fileWriter(file)] }), 'agent'),
    (err: unknown) => err instanceof InvalidArgumentError && err.field === 'log.level',
  );
  assert.equal(existsSync(file), false);
});

test('lines are JSON objects with timestamp, level, service, msg and meta in that order', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'json.log');
  const log = createLogger(logConfig({ level: 'debug', writers: [fileWriter(file)] }), 'controller');
  const cyclic: Record<string, unknown> = { name: 'loop' };
  cyclic.self = cyclic;
  const before = Date.now();
  log.info('plain');
  log.child({ component: 'jobs', shared: 'child' }).warn('with meta', { shared: 'call', count: 3, big: 10n, err: Object.assign(new Error('boom'), { code: 'E_X' }) });
  log.debug('cyclic', { cyclic });
  await log.close();
  const raw = readFileSync(file, 'utf8').trim().split('\n');
  assert.equal(raw.length, 3);
  const [plain, withMeta, cyc] = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual(Object.keys(plain), ['timestamp', 'level', 'service', 'msg']);
  assert.deepEqual(Object.keys(withMeta), ['timestamp', 'level', 'service', 'msg', 'meta']);
  assert.equal(plain.service, 'controller');
  assert.equal(plain.msg, 'plain');
  const ts = Date.parse(String(plain.timestamp));
  assert.ok(ts >= before - 1000 && ts <= Date.now() + 1000);
  const meta = withMeta.meta as Record<string, unknown>;
  assert.equal(meta.component, 'jobs');
  assert.equal(meta.shared, 'call', 'call meta wins over child bindings');
  assert.equal(meta.count, 3);
  assert.equal(meta.big, '10');
  const err = meta.err as Record<string, unknown>;
  assert.equal(err.message, 'boom');
  assert.equal(err.code, 'E_X');
  assert.match(String(err.stack), /boom/);
  assert.equal(((cyc.meta as Record<string, Record<string, unknown>>).cyclic).self, '[Circular]');
});

test('non_blocking drops and counts messages once its buffer is full, and keeps the rest', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'nb.log');
  const registry = new Registry();
  const log = createLogger(logConfig({ non_blocking: true, writers: [fileWriter(file)] }), 'agent', { registry, bufferSize: 4 });
  for (let i = 0; i < 100; i++) log.info(`m${i}`);
  assert.equal(log.droppedMessages(), 96);
  await log.close();
  assert.deepEqual(readLines(file).map((l) => l.msg), ['m0', 'm1', 'm2', 'm3']);
  const metric = await registry.getSingleMetric('log_messages_dropped_total')?.get();
  assert.equal(metric?.values[0]?.value, 96);
});

test('non_blocking writes everything while the buffer keeps up, and close flushes it', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'nb-ok.log');
  const log = createLogger(logConfig({ non_blocking: true, writers: [fileWriter(file)] }), 'agent', { bufferSize: 50 });
  for (let round = 0; round < 5; round++) {
    for (let i = 0; i < 40; i++) log.info(`r${round}-${i}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  await log.close();
  assert.equal(log.droppedMessages(), 0);
  assert.equal(readLines(file).length, 200);
});

test('two loggers on one registry share the drop counter', async (t) => {
  const dir = tempDir(t);
  const registry = new Registry();
  const a = createLogger(logConfig({ non_blocking: true, writers: [fileWriter(join(dir, 'a.log'))] }), 'agent', { registry });
  const b = createLogger(logConfig({ non_blocking: true, writers: [fileWriter(join(dir, 'b.log'))] }), 'agent', { registry, bufferSize: 1 });
  a.info('kept');
  b.info('kept');
  b.info('dropped');
  await Promise.all([a.close(), b.close()]);
  const metric = await registry.getSingleMetric('log_messages_dropped_total')?.get();
  assert.equal(metric?.values[0]?.value, 1);
});

test('closing a child flushes but leaves the root logger writing', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'child.log');
  const log = createLogger(logConfig({ non_blocking: true, writers: [fileWriter(file)] }), 'agent');
  const child = log.child({ part: 'x' });
  child.info('from child');
  await child.close();
  log.info('from root');
  await log.close();
  log.info('after close is ignored');
  assert.deepEqual(readLines(file).map((l) => l.msg), ['from child', 'from root']);
});

test('writers: default maps to /var/log/sluice/<service>.log, relative paths resolve, duplicates and bad names are refused', (t) => {
  assert.equal(resolveWriterTarget('default', 'agent'), '/var/log/sluice/agent.log');
  assert.equal(resolveWriterTarget('default', 'controller'), '/var/log/sluice/controller.log');
  assert.equal(resolveWriterTarget('stderr', 'agent'), 'stderr');
  assert.equal(resolveWriterTarget('logs/x.log', 'agent'), join(process.cwd(), 'logs/x.log'));
  assert.throws(() => resolveWriterTarget('', 'agent'), InvalidArgumentError);
  assert.throws(() => resolveWriterTarget('default', '../etc'), InvalidArgumentError);
  const dir = tempDir(t);
  const file = join(dir, 'dup.log');
  assert.throws(
    () => createLogger(logConfig({ writers: [fileWriter(file), fileWriter(file)] }), 'agent'),
    (err: unknown) => err instanceof InvalidArgumentError && err.field === 'log.writers[1].file',
  );
  assert.throws(() => createLogger(logConfig({}), 'Agent/1'), InvalidArgumentError);
});

test('no writers means JSON lines on stderr; pretty_console adds human lines on stdout', async (t) => {
  const dir = tempDir(t);
  const script = join(dir, 'child.mjs');
  const entry = fileURLToPath(new URL('./create-logger.js', import.meta.url));
  writeFileSync(
    script,
    `import { createLogger } from ${JSON.stringify(entry)};
const log = createLogger({ level: 'info', non_blocking: true, pretty_console: true, writers: [] }, 'tap');
log.info('to the console', { k: 'v' });
log.debug('hidden');
await log.close();
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => child.kill());
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]) as Record<string, unknown>;
  assert.equal(line.msg, 'to the console');
  assert.equal(line.service, 'tap');
  assert.deepEqual(line.meta, { k: 'v' });
  assert.match(stdout, /^\S+Z INFO +tap to the console k=v\n$/);
});

test('meta that cannot be serialized neither throws into the caller nor crashes the process from the non-blocking drain', async (t) => {
  const dir = tempDir(t);
  const script = join(dir, 'bad-meta.mjs');
  const entry = fileURLToPath(new URL('./create-logger.js', import.meta.url));
  writeFileSync(
    script,
    `import { createLogger } from ${JSON.stringify(entry)};
for (const non_blocking of [false, true]) {
  const file = ${JSON.stringify(dir)} + '/' + non_blocking + '.log';
  const log = createLogger({ level: 'info', non_blocking, pretty_console: false, writers: [{ file, compress: false, max_age: 7, max_backups: 3, max_size: 50 }] }, 'agent');
  log.info('bad', { bad: { toJSON() { throw new Error('boom'); } } });
  log.info('after', { k: 'v' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await log.close();
}
`,
  );
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'ignore', 'pipe'] });
  t.after(() => child.kill());
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(code, 0, stderr);
  assert.match(stderr, /log meta could not be serialized: boom/);
  for (const mode of ['false', 'true']) {
    const lines = readLines(join(dir, `${mode}.log`));
    assert.deepEqual(lines.map((l) => l.msg), ['bad', 'after'], `non_blocking ${mode}`);
    assert.deepEqual(lines[0].meta, { log_meta_error: 'boom' });
    assert.deepEqual(lines[1].meta, { k: 'v' });
  }
});
