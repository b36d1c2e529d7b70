import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { noEffectOf } from './keys.js';
import { PROCESSES, type ProcessSpec } from './process.js';
import { bool, noEffect } from './schema/fields.js';

test('noEffect marks a copy: the key and every key under a marked object, not the other uses of the object', () => {
  const shared = Type.Object({ a: bool(false, 'a'), b: bool(false, 'b') });
  const schema = Type.Object({ on: shared, off: noEffect(shared, 'not built'), leaf: noEffect(bool(true, 'c'), 'ignored') });
  const spec: ProcessSpec = { ...PROCESSES.agent, schema };
  assert.equal(noEffectOf(spec, 'off.a'), 'not built');
  assert.equal(noEffectOf(spec, 'off'), 'not built');
  assert.equal(noEffectOf(spec, 'on.a'), undefined);
  assert.equal(noEffectOf(spec, 'leaf'), 'ignored');
  assert.equal((shared as { 'x-no-effect'?: string })['x-no-effect'], undefined, 'the shared object is left unmarked');
});

test('the real trees: the deprecated kubelet scraper is marked; otel.ports.*, crash_report.* and both prometheus trees are read', () => {
  for (const spec of Object.values(PROCESSES)) {
    assert.equal(noEffectOf(spec, 'otel.ports.debug_port'), undefined);
    assert.equal(noEffectOf(spec, 'crash_report.dsn'), undefined);
    assert.equal(noEffectOf(spec, 'crash_report.traces_sample_rate'), undefined);
    assert.equal(noEffectOf(spec, 'prometheus.http_client.timeout'), undefined);
  }
  assert.match(noEffectOf(PROCESSES.agent, 'otel.disable_kubelet_scraper') ?? '', /deprecated/);
  assert.equal(noEffectOf(PROCESSES.agent, 'agent_functions.endpoints'), undefined);
});
