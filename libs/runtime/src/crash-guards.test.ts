import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { Registry } from 'prom-client';
import { installCrashGuards, type GuardedProcess } from './crash-guards.js';

function fakeProcess(): GuardedProcess & EventEmitter & { codes: number[] } {
  const p = new EventEmitter() as EventEmitter & { codes: number[]; exit(code?: number): never };
  p.codes = [];
  p.exit = ((code?: number) => { p.codes.push(code ?? 0); }) as (code?: number) => never;
  return p;
}

test('an unhandled rejection is logged and counted, and the process keeps running', async () => {
  const proc = fakeProcess();
  const logged: string[] = [];
  const registry = new Registry();
  const remove = installCrashGuards({ error: (msg, meta) => logged.push(`${msg} ${String(meta?.error)}`), close: async () => {} }, registry, proc);
  proc.emit('unhandledRejection', new Error('lost promise'));
  proc.emit('unhandledRejection', 'a string reason');
  assert.deepEqual(proc.codes, [], 'no exit');
  assert.match(logged[0], /unhandled promise rejection.*lost promise/);
  assert.match(logged[1], /a string reason/);
  assert.match(await registry.metrics(), /process_unhandled_rejections_total 2/);
  remove();
  assert.equal(proc.listenerCount('unhandledRejection'), 0);
  assert.equal(proc.listenerCount('uncaughtException'), 0);
});

test('an uncaught exception flushes the log and exits 70, once', async () => {
  const proc = fakeProcess();
  let closed = 0;
  const logged: string[] = [];
  installCrashGuards({ error: (msg) => logged.push(msg), close: async () => { closed++; } }, new Registry(), proc);
  proc.emit('uncaughtException', new TypeError('boom'));
  proc.emit('uncaughtException', new TypeError('again'));
  await new Promise((r) => setImmediate(r));
  assert.equal(closed, 1);
  assert.deepEqual(proc.codes, [70]);
  assert.equal(logged.length, 2, 'both are logged');
});

test('installing twice on one registry reuses the counter', () => {
  const registry = new Registry();
  const a = installCrashGuards({ error: () => {}, close: async () => {} }, registry, fakeProcess());
  const b = installCrashGuards({ error: () => {}, close: async () => {} }, registry, fakeProcess());
  a(); b();
  assert.ok(registry.getSingleMetric('process_unhandled_rejections_total'));
});

function recorder(flushMs = 0) {
  const reports: Array<{ err: unknown; level: string }> = [];
  let flushed = 0;
  return {
    reports,
    flushed: () => flushed,
    reporter: {
      report: (err: unknown, level: 'fatal' | 'error') => { reports.push({ err, level }); },
      flush: async () => { await new Promise((r) => setTimeout(r, flushMs)); flushed++; return true; },
      trace: () => {},
    },
  };
}

test('an uncaught exception is reported as fatal and flushed before the exit', async () => {
  const proc = fakeProcess();
  const rec = recorder(20);
  let closedAfterFlush = false;
  installCrashGuards({ error: () => {}, close: async () => { closedAfterFlush = rec.flushed() === 1; } }, new Registry(), proc, { reporter: Promise.resolve(rec.reporter) });
  const err = new Error('state unknown');
  proc.emit('uncaughtException', err);
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(rec.reports, [{ err, level: 'fatal' }]);
  assert.equal(rec.flushed(), 1);
  assert.ok(closedAfterFlush, 'the log is closed after the report left');
  assert.deepEqual(proc.codes, [70]);
});

test('an unhandled rejection is reported as an error and the process keeps running', async () => {
  const proc = fakeProcess();
  const rec = recorder();
  installCrashGuards({ error: () => {}, close: async () => {} }, new Registry(), proc, { reporter: rec.reporter });
  proc.emit('unhandledRejection', 'lost');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(rec.reports, [{ err: 'lost', level: 'error' }]);
  assert.deepEqual(proc.codes, []);
});

test('a reporter that never starts or never flushes does not keep the process from exiting', async () => {
  for (const reporter of [new Promise<undefined>(() => {}), recorder(1000).reporter]) {
    const proc = fakeProcess();
    installCrashGuards({ error: () => {}, close: async () => {} }, new Registry(), proc, { reporter, flushMs: 50 });
    proc.emit('uncaughtException', new Error('x'));
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(proc.codes, [70]);
  }
});
