// The test API server's parts on their own: label and field selectors, the three patch types,
// the printer-column JSONPath subset, CRD checks, schema pruning, and the store's history window.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from './kube-api/api-error.js';
import { prune, toJsonSchema } from './kube-api/cr-schema.js';
import { parseFieldSelector } from './kube-api/field-selector.js';
import { matchLabelsString, parseLabelSelector } from './kube-api/label-selector.js';
import { applyPatch, mergePatch, strategicMergePatch, type Json } from './kube-api/patch.js';
import { crdProblems } from './kube-api/resource-types.js';
import { Store, TooOldError } from './kube-api/store.js';
import { evalJsonPath, humanAge } from './kube-api/table.js';

const status = (fn: () => unknown): number => {
  try {
    fn();
    return 0;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
};

test('label selectors: equality, inequality, sets, existence; malformed ones are 400', () => {
  const l = { app: 'web', tier: 'gold', 'sluice.dev/inject': 'enabled' };
  const m = (s: string): boolean => parseLabelSelector(s)(l);
  assert.equal(m(''), true);
  assert.equal(m('app=web'), true);
  assert.equal(m('app==web,tier=gold'), true);
  assert.equal(m('app!=web'), false);
  assert.equal(m('missing!=x'), true);
  assert.equal(m('tier in (gold, silver)'), true);
  assert.equal(m('tier notin (gold)'), false);
  assert.equal(m('missing notin (gold)'), true);
  assert.equal(m('sluice.dev/inject'), true);
  assert.equal(m('!sluice.dev/inject'), false);
  assert.equal(m('!missing'), true);
  assert.equal(parseLabelSelector('app=web')(undefined), false);
  for (const bad of ['a in (b', 'a=b,', '=x', 'a=b c', 'Bad Key=x', 'a=' + 'v'.repeat(64), 'a in (b,c d)']) assert.equal(status(() => parseLabelSelector(bad)), 400, bad);
  assert.equal(matchLabelsString({ matchLabels: { b: '2', a: '1' } }), 'a=1,b=2');
  assert.equal(matchLabelsString(undefined), '');
});

test('field selectors: the supported fields per resource, = and !=; others are 400', () => {
  const pod = { metadata: { name: 'p', namespace: 'ns' }, spec: { nodeName: 'n1' }, status: { phase: 'Running' } };
  assert.equal(parseFieldSelector('', 'pods', 'spec.nodeName=n1,metadata.namespace=ns')(pod), true);
  assert.equal(parseFieldSelector('', 'pods', 'spec.nodeName!=n1')(pod), false);
  assert.equal(parseFieldSelector('', 'pods', 'status.phase==Running')(pod), true);
  assert.equal(parseFieldSelector('', 'configmaps', 'metadata.name=p')(pod), true);
  assert.equal(status(() => parseFieldSelector('', 'configmaps', 'spec.nodeName=n1')), 400);
  assert.equal(status(() => parseFieldSelector('', 'pods', 'spec.nodeName')), 400);
});

test('merge patch (RFC 7386): objects merge, null deletes, arrays and scalars replace', () => {
  const target: Json = { a: { b: 1, c: [1, 2] }, d: 'x' };
  assert.deepEqual(mergePatch(target, { a: { b: null, c: [3] }, e: { f: 1 } }), { a: { c: [3] }, d: 'x', e: { f: 1 } });
  assert.deepEqual(target, { a: { b: 1, c: [1, 2] }, d: 'x' }, 'the target is not changed');
  assert.equal(mergePatch(target, 'y'), 'y');
});

test('strategic merge patch: containers by name, ports by key, directives, primitive lists replaced', () => {
  const pod: Json = { spec: { containers: [{ name: 'a', image: 'x', env: [{ name: 'A', value: '1' }] }, { name: 'b', image: 'y' }], tolerations: [{ key: 't' }], finalizers: ['f1'] } };
  const out = strategicMergePatch(pod, {
    spec: {
      '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }],
      containers: [{ name: 'a', image: 'x2', env: [{ name: 'B', value: '2' }] }, { name: 'b', $patch: 'delete' }, { name: 'c', image: 'z', ports: [{ containerPort: 80 }] }],
      tolerations: [{ key: 'u' }],
      finalizers: ['f2'],
    },
  }) as { spec: { containers: { name: string; image: string; env?: unknown[] }[]; tolerations: unknown[]; finalizers: string[] } };
  assert.deepEqual(out.spec.containers.map((c) => [c.name, c.image]), [['a', 'x2'], ['c', 'z']]);
  assert.deepEqual(out.spec.containers[0].env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
  assert.deepEqual(out.spec.tolerations, [{ key: 'u' }]);
  assert.deepEqual(out.spec.finalizers, ['f1', 'f2']);
  const replaced = strategicMergePatch({ spec: { selector: { a: '1', b: '2' } } }, { spec: { selector: { $patch: 'replace', c: '3' } } });
  assert.deepEqual(replaced, { spec: { selector: { c: '3' } } });
  const svc = strategicMergePatch({ spec: { ports: [{ port: 80, name: 'http' }, { port: 443 }] } }, { spec: { ports: [{ port: 80, targetPort: 8080 }] } }) as { spec: { ports: unknown[] } };
  assert.deepEqual(svc.spec.ports, [{ port: 80, name: 'http', targetPort: 8080 }, { port: 443 }]);
  assert.deepEqual(strategicMergePatch({ a: { list: ['x', 'y'] } }, { a: { '$deleteFromPrimitiveList/list': ['x'] } }), { a: { list: ['y'] } });
});

test('applyPatch picks the type from the content type and refuses what the server refuses', () => {
  const t: Json = { a: 1 };
  assert.deepEqual(applyPatch('application/merge-patch+json; charset=utf-8', t, Buffer.from('{"b":2}'), false), { a: 1, b: 2 });
  assert.deepEqual(applyPatch('application/json-patch+json', t, Buffer.from('[{"op":"replace","path":"/a","value":3}]'), false), { a: 3 });
  assert.equal(status(() => applyPatch('application/strategic-merge-patch+json', t, Buffer.from('{}'), false)), 415);
  assert.equal(status(() => applyPatch('application/apply-patch+yaml', t, Buffer.from('{}'), true)), 415);
  assert.equal(status(() => applyPatch('text/plain', t, Buffer.from('{}'), true)), 415);
  assert.equal(status(() => applyPatch('application/merge-patch+json', t, Buffer.from('{'), true)), 400);
  assert.equal(status(() => applyPatch('application/json-patch+json', t, Buffer.from('[{"op":"remove","path":"/nope"}]'), true)), 422);
  assert.equal(status(() => applyPatch('application/json-patch+json', t, Buffer.from('[{"op":"bogus","path":"/a"}]'), true)), 422);
});

test('printer-column JSONPath: fields, indices, equality filters; ages like kubectl', () => {
  const o = { status: { conditions: [{ type: 'Other', status: 'False' }, { type: 'Ready', status: 'True' }] }, spec: { list: [5, 6] } };
  assert.equal(evalJsonPath(o, '.status.conditions[?(@.type=="Ready")].status'), 'True');
  assert.equal(evalJsonPath(o, '.spec.list[1]'), 6);
  assert.equal(evalJsonPath(o, '{.spec.list[0]}'), 5);
  assert.equal(evalJsonPath(o, '.spec.missing.deeper'), undefined);
  assert.equal(evalJsonPath(o, 'not a path'), undefined);
  const now = Date.parse('2026-01-03T00:00:00Z');
  assert.equal(humanAge('2026-01-02T23:59:30Z', now), '30s');
  assert.equal(humanAge('2026-01-02T23:00:00Z', now), '60m');
  assert.equal(humanAge('2026-01-01T01:00:00Z', now), '47h');
  assert.equal(humanAge('2025-12-20T00:00:00Z', now), '14d');
  assert.equal(humanAge('garbage', now), '<invalid>');
});

test('CRD checks: dotted group, name = plural.group, one storage version, a scope', () => {
  const good = { metadata: { name: 'ws.ex.dev' }, spec: { group: 'ex.dev', scope: 'Namespaced', names: { plural: 'ws', kind: 'W' }, versions: [{ name: 'v1', served: true, storage: true }] } };
  assert.deepEqual(crdProblems(good), []);
  const fields = (crd: unknown): string[] => crdProblems(crd as never).map((p) => p.field);
  assert.deepEqual(fields({ ...good, metadata: { name: 'x' } }), ['metadata.name']);
  assert.deepEqual(fields({ ...good, spec: { ...good.spec, scope: 'Global' } }), ['spec.scope']);
  assert.deepEqual(fields({ ...good, spec: { ...good.spec, versions: [{ name: 'v1', storage: true }, { name: 'v2', storage: true }] } }), ['spec.versions']);
  assert.deepEqual(fields({ metadata: { name: 'x' } }), ['spec']);
});

test('schema pruning keeps declared and preserved fields only; OpenAPI exclusive bounds become JSON Schema ones', () => {
  const schema = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, map: { type: 'object', additionalProperties: { type: 'object', properties: { k: { type: 'string' } } } }, list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } } } };
  const v = { a: { b: 'x', c: 1 }, free: { anything: { goes: 1 } }, map: { one: { k: 'v', z: 1 } }, list: [{ n: 1, m: 2 }], gone: 1 };
  prune(v, schema);
  assert.deepEqual(v, { a: { b: 'x' }, free: { anything: { goes: 1 } }, map: { one: { k: 'v' } }, list: [{ n: 1 }] });
  assert.deepEqual(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1, exclusiveMaximum: false, enum: [{ exclusiveMinimum: true }] }), { type: 'number', exclusiveMinimum: 0, maximum: 1, enum: [{ exclusiveMinimum: true }] });
  // x-kubernetes-int-or-string takes an integer or a string, as the API server makes of it.
  assert.deepEqual(toJsonSchema({ 'x-kubernetes-int-or-string': true, minimum: 1 }), { 'x-kubernetes-int-or-string': true, minimum: 1, anyOf: [{ type: 'integer' }, { type: 'string' }] });
});

test('the store: one resourceVersion counter, a bounded history, 410 before it', () => {
  const s = new Store(2);
  const meta = (name: string) => ({ name, uid: name, resourceVersion: '', creationTimestamp: '' });
  const a = s.put('/cm', { metadata: meta('a') });
  s.put('/cm', { metadata: meta('b') });
  s.put('/other', { metadata: meta('c') });
  assert.equal(Number(a.metadata.resourceVersion) + 2, s.currentRv());
  assert.throws(() => s.changesSince('/cm', Number(a.metadata.resourceVersion) - 1), TooOldError);
  assert.deepEqual(s.changesSince('/cm', Number(a.metadata.resourceVersion)).map((c) => c.object.metadata.name), ['b']);
  assert.equal(s.remove('/cm', { metadata: meta('zz') }), undefined);
  s.expireHistory();
  assert.throws(() => s.changesSince('/cm', s.currentRv() - 1), TooOldError);
  assert.deepEqual(s.changesSince('/cm', s.currentRv()), []);
});
