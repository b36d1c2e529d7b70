import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMPONENT_KINDS } from '../components/index.js';
import type { ComponentKind } from '../components/kind.js';
import { kindName } from './common.js';
import { PUBLISHED_DECISION_KINDS, PUBLISHED_KIND_BY_NAME, PUBLISHED_KIND_NAMES, PUBLISHED_KINDS } from './kinds.js';
import { checkPublishedComponent, checkPublishedDecision } from './validate.js';

const kinds = COMPONENT_KINDS as readonly ComponentKind[];

test('the published kinds are read from the component kinds that publish them, and the resources', () => {
  const published = new Set(kinds.flatMap((k) => k.publishes ?? []));
  for (const contract of published) assert.ok(PUBLISHED_KINDS.includes(contract as never), `${kindName(contract)} is published`);
  assert.deepEqual(PUBLISHED_KINDS.filter((c) => !published.has(c)).map(kindName), ['classifier', 'flux_meter'], 'only the resources publish without a component');
  assert.equal(new Set(PUBLISHED_KIND_NAMES).size, PUBLISHED_KINDS.length, 'one contract per kind name');
  assert.equal(PUBLISHED_KIND_BY_NAME.get('load_scheduler'), kinds.find((k) => k.path.join('.') === 'flow_control.adaptive_load_scheduler')?.publishes?.[0],
    'a contract two components publish is listed once');
  // Every flow_control and auto_scale component publishes for the agents.
  for (const k of kinds.filter((x) => x.path[0] === 'flow_control' || x.path[0] === 'auto_scale')) {
    assert.ok((k.publishes ?? []).length > 0, `${k.path.join('.')} names what it publishes`);
  }
});

test('each published kind has a schema, an example configuration its validator accepts and, when it takes decisions, an example decision', () => {
  for (const contract of PUBLISHED_KINDS) {
    const name = kindName(contract);
    const component = checkPublishedComponent(contract.example.component);
    assert.ok(component.ok, `${name}: ${component.ok ? '' : component.error}`);
    assert.equal(contract.example.component.kind, name);
    if (contract.decision === undefined) {
      assert.equal(contract.example.decision, undefined, name);
      assert.ok(!PUBLISHED_DECISION_KINDS.includes(name as never), name);
      continue;
    }
    const decision = checkPublishedDecision(contract.example.decision);
    assert.ok(decision.ok, `${name}: ${decision.ok ? '' : decision.error}`);
    assert.ok(PUBLISHED_DECISION_KINDS.includes(name as never), name);
  }
});
