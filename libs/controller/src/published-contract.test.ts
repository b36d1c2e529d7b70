import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkPublishedDecision, compilePolicy, parsePublishedComponent, parsePublishedDecision, type PublishedComponent } from '@sluice/policies';
import { Registry } from 'prom-client';
import { parseAllDocuments } from 'yaml';
import { type PolicyController } from './controller.js';
import { Publisher } from './publisher.js';
import { ControllerMetrics } from './metrics.js';
import { MemoryEtcd, until } from './test-support.js';
import { startTestController } from './test-controller.js';

const EXAMPLES = fileURLToPath(new URL('../../../deploy/examples/', import.meta.url));

function examples(): { file: string; name: string; spec: unknown }[] {
  const out: { file: string; name: string; spec: unknown }[] = [];
  for (const file of readdirSync(EXAMPLES).filter((f) => f.endsWith('.yaml')).sort()) {
    for (const doc of parseAllDocuments(readFileSync(join(EXAMPLES, file), 'utf8'))) {
      const r = doc.toJS() as { metadata: { name: string }; spec: unknown };
      out.push({ file, name: r.metadata.name, spec: r.spec });
    }
  }
  return out;
}

function controllerOn(t: TestContext, etcd: MemoryEtcd): PolicyController {
  return startTestController(t, { etcd }).c;
}

test('what the controller publishes for every deploy/examples policy is what the agents accept (the published schemas)', async (t) => {
  const all = examples();
  assert.ok(all.length >= 5, 'the examples are read');
  const etcd = new MemoryEtcd();
  const controller = controllerOn(t, etcd);
  const kinds = new Set<string>();
  for (const { file, name, spec } of all) {
    await controller.store.upsert(name, spec);
    const compiled = compilePolicy(name, spec);
    await until(() => [...etcd.under('sluice/config/').keys()].filter((k) => k.split('/')[3] === name).length === compiled.components.length, 5000, `${file} published`);
  }
  await controller.publisher.idle();
  for (const [key, value] of etcd.under('sluice/config/')) {
    const parsed = parsePublishedComponent(value);
    assert.ok(parsed.ok, `${key}: ${parsed.ok ? '' : parsed.error}`);
    kinds.add(parsed.value.kind);
  }
  for (const [key, value] of etcd.under('sluice/decisions/')) {
    const parsed = parsePublishedDecision(value);
    assert.ok(parsed.ok, `${key}: ${parsed.ok ? '' : parsed.error}`);
  }
  assert.deepEqual([...kinds].sort(), ['classifier', 'flux_meter', 'load_scheduler', 'pod_scaler', 'quota_scheduler', 'rate_limiter', 'sampler'], 'the examples cover every kind they publish');
  assert.ok(etcd.under('sluice/decisions/').size > 0, 'decisions were published');
  // Every decision a circuit makes, whatever its PromQL results, fits its kind's schema too.
  for (const { file, name, spec } of all) {
    const compiled = compilePolicy(name, spec);
    const circuit = compiled.createCircuit();
    for (const [at, value] of [[0, 0], [1000, 1], [2000, 250], [3000, undefined]] as const) {
      const out = circuit.tick(at, { promql: new Map(compiled.promql.map((q) => [q.id, value])), variables: new Map() });
      for (const [id, d] of out.decisions) {
        const checked = checkPublishedDecision(d);
        assert.ok(checked.ok, `${file} ${id}: ${checked.ok ? '' : checked.error}`);
      }
    }
  }
});

test('the publisher refuses a component or decision the agents would refuse, naming the path, and writes nothing', async () => {
  const etcd = new MemoryEtcd();
  const publisher = new Publisher(etcd, new ControllerMetrics(new Registry(), () => new Map()));
  const good: PublishedComponent = {
    kind: 'rate_limiter', policy_name: 'p', policy_hash: 'h', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: 'ingress' }],
    parameters: { interval_ms: 1000, continuous_fill: true, max_idle_time_ms: 1000, lazy_sync: { enabled: false, num_sync: 4 } },
  };
  const bad = { ...good, parameters: { ...good.parameters, interval_ms: 0 } };
  const refused = publisher.setComponent('sluice/config/default/p/root.0', bad);
  assert.match(refused ?? '', /^sluice\/config\/default\/p\/root\.0: parameters\.interval_ms: must be > 0, got 0/);
  const noSelector = { ...good, selectors: [{ control_point: '' }] };
  assert.match(publisher.setComponent('sluice/config/default/p/root.0', noSelector) ?? '', /selectors\[0\]\.control_point: must not be empty/);
  const badDecision = publisher.setDecision('sluice/decisions/default/p/root.0', { kind: 'rate_limiter', bucket_capacity: -1, fill_amount: 1, pass_through: false });
  assert.match(badDecision ?? '', /bucket_capacity: must be >= 0, got -1/);
  await publisher.idle();
  assert.equal(publisher.value('sluice/config/default/p/root.0'), undefined);
  assert.equal(publisher.value('sluice/decisions/default/p/root.0'), undefined);
  assert.equal(publisher.setComponent('sluice/config/default/p/root.0', good), undefined);
  assert.equal(publisher.value('sluice/config/default/p/root.0'), JSON.stringify(good));
  await publisher.shutdown();
});
