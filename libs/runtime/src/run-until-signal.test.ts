import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LifecycleGroup } from '@sluice/lifecycle';
import { runUntilSignal } from './run-until-signal.js';

interface Line { level: 'info' | 'error'; msg: string; meta?: Record<string, unknown> }

function recordingLogger(lines: Line[]): { info(msg: string, meta?: Record<string, unknown>): void; error(msg: string, meta?: Record<string, unknown>): void; close(): Promise<void> } {
  return {
    info: (msg, meta) => { lines.push({ level: 'info', msg, ...(meta !== undefined ? { meta } : {}) }); },
    error: (msg, meta) => { lines.push({ level: 'error', msg, ...(meta !== undefined ? { meta } : {}) }); },
    close: async () => undefined,
  };
}

async function until(what: string, cond: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!cond()) {
    assert.ok(Date.now() < end, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('SIGTERM runs one shutdown of the whole group within the budget: a stuck part and a failing one are logged, the others stop, exit code 0', async () => {
  const lines: Line[] = [];
  const stopped: string[] = [];
  let serving = false;
  const group = new LifecycleGroup({ minChildDeadlineMs: 20 })
    .add({ name: 'first', start: async () => undefined, shutdown: async () => { stopped.push('first'); } })
    .add({ name: 'broken', start: async () => undefined, shutdown: async () => { throw new Error('socket in a bad state'); } })
    .add({ name: 'stuck', start: async () => undefined, shutdown: () => new Promise<void>(() => {}) })
    .add({ name: 'server', start: async () => { serving = true; }, shutdown: async (opts) => { stopped.push(`server ${opts?.deadlineMs !== undefined}`); } });
  const running = runUntilSignal(group, recordingLogger(lines), 200);
  await until('start', () => serving);
  const t0 = Date.now();
  process.emit('SIGTERM', 'SIGTERM');
  assert.equal(await running, 0);
  assert.ok(Date.now() - t0 < 5000, 'the stuck part did not hold the process');
  assert.deepEqual(stopped, ['server true', 'first'], 'reverse order, past the stuck and the failing part');
  const summary = lines.find((l) => l.msg === 'stopped, not cleanly');
  assert.ok(summary !== undefined, JSON.stringify(lines));
  const failures = summary.meta?.failures as string[];
  assert.equal(failures.length, 2);
  assert.match(failures.join('\n'), /stuck: shutdown did not finish within \d+ ms/);
  assert.match(failures.join('\n'), /socket in a bad state/);
  assert.equal(process.listenerCount('SIGTERM'), 0, 'the signal handlers are removed');
});

test('a clean shutdown logs stopped; a failed start exits 1 and undoes what started', async () => {
  const lines: Line[] = [];
  const events: string[] = [];
  const ok = new LifecycleGroup().add({ name: 'a', start: async () => { events.push('start a'); }, shutdown: async () => { events.push('stop a'); } });
  const running = runUntilSignal(ok, recordingLogger(lines), 1000);
  await until('start', () => events.includes('start a'));
  process.emit('SIGINT', 'SIGINT');
  assert.equal(await running, 0);
  assert.ok(lines.some((l) => l.msg === 'stopped'));

  const failing = new LifecycleGroup()
    .add({ name: 'b', start: async () => { events.push('start b'); }, shutdown: async () => { events.push('stop b'); } })
    .add({ name: 'port', start: async () => { throw new Error('EADDRINUSE'); }, shutdown: async () => undefined });
  assert.equal(await runUntilSignal(failing, recordingLogger(lines), 1000), 1);
  assert.deepEqual(events, ['start a', 'stop a', 'start b', 'stop b']);
  assert.ok(lines.some((l) => l.msg === 'start-up failed' && /port: EADDRINUSE/.test(String(l.meta?.error))));
});
