import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PrefixWatch, WatchHandler } from '@sluice/etcd';
import { Engine } from '@sluice/flowcontrol';
import { configKey, decisionKey, type PublishedPodScaler } from '@sluice/policies';
import { Registry } from 'prom-client';
import { parseComponent, parseDecision } from './parse-published.js';
import { PolicyEnforcement } from './policy-enforcement.js';
import { silentLogger } from '@sluice/telemetry/logger';

const SCALER: PublishedPodScaler = {
  kind: 'pod_scaler', policy_name: 'scale', policy_hash: 'h', component_id: 'root.1', agent_group: 'default', selectors: [],
  kubernetes_object: { namespace: 'shop', api_version: 'apps/v1', kind: 'Deployment', name: 'web' },
  min_replicas: 1, max_replicas: 5, scale_out_cooldown_ms: 30_000, scale_in_cooldown_ms: 120_000, dry_run: false,
};

test('a published pod scaler and its decision parse; bad ones are refused naming the field', () => {
  assert.deepEqual(parseComponent(JSON.stringify(SCALER)), { ok: true, value: SCALER });
  assert.deepEqual(parseDecision('{"kind":"pod_scaler","replicas":3}'), { ok: true, value: { kind: 'pod_scaler', replicas: 3 } });
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ selectors: [{ control_point: 'ingress' }] }, /^selectors/],
    [{ kubernetes_object: null }, /^kubernetes_object:/],
    [{ kubernetes_object: { ...SCALER.kubernetes_object, name: '' } }, /kubernetes_object\.name/],
    [{ kubernetes_object: { ...SCALER.kubernetes_object, api_version: 'v1' } }, /api_version/],
    [{ kubernetes_object: { ...SCALER.kubernetes_object, kind: 'Pod' } }, /kubernetes_object\.kind/],
    [{ min_replicas: -1 }, /^min_replicas/],
    [{ max_replicas: 0.5 }, /^max_replicas/],
    [{ min_replicas: 6 }, /^max_replicas/],
    [{ scale_in_cooldown_ms: -1 }, /scale_in_cooldown_ms/],
    [{ scale_out_cooldown_ms: 'x' }, /scale_out_cooldown_ms/],
    [{ dry_run: 'no' }, /dry_run/],
  ];
  for (const [over, error] of bad) {
    const r = parseComponent(JSON.stringify({ ...SCALER, ...over }));
    assert.equal(r.ok, false, JSON.stringify(over));
    if (!r.ok) assert.match(r.error, error);
  }
  for (const d of ['{"kind":"pod_scaler"}', '{"kind":"pod_scaler","replicas":-1}', '{"kind":"pod_scaler","replicas":1.5}', '{"kind":"pod_scaler","replicas":"3"}']) {
    assert.equal(parseDecision(d).ok, false, d);
  }
});

test('enforcement lists a pod scaler with its decision, registers nothing in the engine and refuses a decision of another kind', () => {
  const kv = new Map<string, string>();
  const watches: { prefix: string; handler: WatchHandler }[] = [];
  const etcd = {
    namespace: 'sluice',
    watchPrefix(prefix: string, handler: WatchHandler): PrefixWatch {
      watches.push({ prefix, handler });
      handler.reset(new Map([...kv].filter(([k]) => k.startsWith(prefix))));
      return { async shutdown() {} };
    },
  };
  const put = (k: string, v: string) => { kv.set(k, v); for (const w of watches) if (k.startsWith(w.prefix)) w.handler.put(k, v); };
  const registered: unknown[] = [];
  const engine = new Engine({ agentGroup: 'default' });
  const counting = { register: (c: Parameters<Engine['register']>[0], s: Parameters<Engine['register']>[1]) => { registered.push(c); return engine.register(c, s); } };
  const warnings: string[] = [];
  const enforcement = new PolicyEnforcement({ etcd, engine: counting, agentGroup: 'default', registry: new Registry(), logger: { ...silentLogger, warn(m: string) { warnings.push(m); }, error(m: string) { warnings.push(m); } } });
  enforcement.start();
  put(configKey('sluice', 'default', 'scale', 'root.1'), JSON.stringify(SCALER));
  put(decisionKey('sluice', 'default', 'scale', 'root.1'), '{"kind":"pod_scaler","replicas":4}');
  const listed = enforcement.enforced();
  assert.equal(listed.length, 1);
  assert.equal(listed[0].kind, 'pod_scaler');
  assert.deepEqual(listed[0].decision, { kind: 'pod_scaler', replicas: 4 });
  assert.equal(registered.length, 0);
  assert.deepEqual(warnings, []);
  put(decisionKey('sluice', 'default', 'scale', 'root.1'), '{"kind":"sampler","accept_percentage":5,"pass_through":false}');
  assert.deepEqual(enforcement.enforced()[0].decision, { kind: 'pod_scaler', replicas: 4 }, 'the last good decision stays');
  assert.equal(warnings.length, 1);
  enforcement.shutdown();
});
