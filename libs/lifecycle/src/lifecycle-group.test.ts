import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LifecycleGroup } from './lifecycle-group.js';
import { named, ShutdownDeadlineError, StartupError, type NamedLifecycle } from './contract.js';

interface Behaviour { failStart?: boolean; failStop?: boolean; hangStop?: boolean; stopMs?: number; flush?: 'ok' | 'fail' }

function child(events: string[], name: string, b: Behaviour = {}): NamedLifecycle {
  return {
    name,
    async start() {
      if (b.failStart) throw new Error('port taken');
      events.push(`start ${name}`);
    },
    async shutdown(opts) {
      events.push(`stop ${name} ${opts?.deadlineMs !== undefined ? 'with deadline' : 'without deadline'}`);
      if (b.hangStop) await new Promise<void>(() => {});
      if (b.stopMs !== undefined) await new Promise((r) => setTimeout(r, b.stopMs));
      if (b.failStop) throw new Error(`${name} would not close`);
    },
    ...(b.flush === undefined ? {} : {
      async forceFlush() {
        events.push(`flush ${name}`);
        if (b.flush === 'fail') throw new Error('exporter down');
      },
    }),
  };
}

test('children start in order and shut down in reverse, each given a deadline; a second shutdown is the first', async () => {
  const events: string[] = [];
  const group = new LifecycleGroup().add(child(events, 'a')).add(child(events, 'b')).add(child(events, 'c'));
  await group.start();
  const first = group.shutdown({ deadlineMs: 1000 });
  assert.equal(group.shutdown(), first);
  await first;
  assert.deepEqual(events, [
    'start a', 'start b', 'start c', 'stop c with deadline', 'stop b with deadline', 'stop a with deadline',
  ]);
});

test('a failing child does not stop the others: the errors are aggregated and name each child', async () => {
  const events: string[] = [];
  const group = new LifecycleGroup({ name: 'agent' })
    .add(child(events, 'a', { failStop: true }))
    .add(child(events, 'b'))
    .add(child(events, 'c', { failStop: true }));
  await group.start();
  await assert.rejects(group.shutdown({ deadlineMs: 1000 }), (err: unknown) => {
    assert.ok(err instanceof AggregateError);
    assert.equal(err.errors.length, 2);
    assert.match(err.message, /agent: 2 of 3 components did not shut down cleanly/);
    assert.match(err.message, /c: c would not close; a: a would not close/);
    return true;
  });
  assert.deepEqual(events.filter((e) => e.startsWith('stop')).map((e) => e.split(' ')[1]), ['c', 'b', 'a']);
});

test('a child that never resolves is bounded by the group\'s deadline and the ones after it still stop', async () => {
  const events: string[] = [];
  const group = new LifecycleGroup({ minChildDeadlineMs: 20 })
    .add(child(events, 'first'))
    .add(child(events, 'stuck', { hangStop: true }));
  await group.start();
  const t0 = Date.now();
  await assert.rejects(group.shutdown({ deadlineMs: 80 }), (err: unknown) => {
    assert.ok(err instanceof AggregateError);
    assert.equal(err.errors.length, 1);
    assert.ok(err.errors[0] instanceof ShutdownDeadlineError);
    assert.equal((err.errors[0] as ShutdownDeadlineError).component, 'stuck');
    return true;
  });
  assert.ok(Date.now() - t0 < 5000);
  assert.ok(events.includes('stop first with deadline'), 'the child before the stuck one was still shut down');
});

test('a failed start shuts down what started, in reverse, and names the component', async () => {
  const events: string[] = [];
  const group = new LifecycleGroup()
    .add(child(events, 'a')).add(child(events, 'b')).add(child(events, 'server', { failStart: true })).add(child(events, 'late'));
  await assert.rejects(group.start(), (err: unknown) => err instanceof StartupError && err.component === 'server' && /port taken/.test(err.message));
  assert.deepEqual(events, ['start a', 'start b', 'stop b with deadline', 'stop a with deadline']);
});

test('a group never started shuts down every child; one started shuts down only the started ones', async () => {
  const events: string[] = [];
  await new LifecycleGroup().add(child(events, 'x')).add(child(events, 'y')).shutdown();
  assert.deepEqual(events, ['stop y with deadline', 'stop x with deadline']);
});

test('shutdown while a child is starting stops that child too and starts no more', async () => {
  const events: string[] = [];
  let release: (() => void) | undefined;
  const slow: NamedLifecycle = {
    name: 'slow',
    start: () => new Promise<void>((r) => { release = r; }),
    async shutdown() { events.push('stop slow'); },
  };
  const group = new LifecycleGroup().add(child(events, 'a')).add(slow).add(child(events, 'never'));
  const starting = group.start();
  while (release === undefined) await new Promise((r) => setImmediate(r));
  await group.shutdown({ deadlineMs: 1000 });
  release();
  await starting;
  assert.deepEqual(events, ['start a', 'stop a with deadline', 'stop slow']);
});

test('groups nest: a group is a child like any other', async () => {
  const events: string[] = [];
  const inner = new LifecycleGroup({ name: 'inner' }).add(child(events, 'i1')).add(child(events, 'i2'));
  const outer = new LifecycleGroup().add(child(events, 'o1')).add(inner).add(child(events, 'o2'));
  await outer.start();
  await outer.shutdown({ deadlineMs: 1000 });
  assert.deepEqual(events.map((e) => e.split(' ').slice(0, 2).join(' ')), [
    'start o1', 'start i1', 'start i2', 'start o2', 'stop o2', 'stop i2', 'stop i1', 'stop o1',
  ]);
});

test('children cannot be added once the group started', async () => {
  const group = new LifecycleGroup({ name: 'agent' });
  await group.start();
  assert.throws(() => group.add(child([], 'late')), /agent: late added after the group started/);
});

test('forceFlush flushes every child that buffers and aggregates the failures', async () => {
  const events: string[] = [];
  const group = new LifecycleGroup({ name: 'telemetry' })
    .add(child(events, 'a', { flush: 'ok' })).add(child(events, 'b')).add(child(events, 'c', { flush: 'fail' }));
  await assert.rejects(group.forceFlush(), (err: unknown) => {
    assert.ok(err instanceof AggregateError);
    assert.match(err.message, /telemetry: 1 of 2 flushes failed: c: exporter down/);
    return true;
  });
  assert.deepEqual(events, ['flush a', 'flush c']);
});

test('named() hands a class\'s own methods to the group, with their this', async () => {
  class Watcher {
    stopped = 0;
    flushed = 0;
    async shutdown(): Promise<void> { this.stopped++; }
    async forceFlush(): Promise<void> { this.flushed++; }
  }
  const w = new Watcher();
  const group = new LifecycleGroup().add(named('watcher', w));
  assert.deepEqual(group.names(), ['watcher']);
  await group.forceFlush();
  await group.shutdown();
  assert.equal(w.stopped, 1);
  assert.equal(w.flushed, 1);
});
