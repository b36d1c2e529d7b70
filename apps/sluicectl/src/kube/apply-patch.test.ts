import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, LAST_APPLIED, withLastApplied } from './apply-patch.js';

test('the patch sets what is given and removes what was applied before and is no longer given', () => {
  const last = { metadata: { name: 'p', labels: { a: '1', b: '2' } }, spec: { circuit: { components: [1, 2] }, resources: { x: 1 } }, dynamicConfig: { k: 1 } };
  const next = { metadata: { name: 'p', labels: { a: '3' } }, spec: { circuit: { components: [3] } } };
  assert.deepEqual(applyPatch(last, next), {
    metadata: { name: 'p', labels: { a: '3', b: null } },
    spec: { circuit: { components: [3] }, resources: null },
    dynamicConfig: null,
  });
  // Not applied this way before: nothing is removed (fields others set stay).
  assert.deepEqual(applyPatch(undefined, next), next);
});

test('the last-applied annotation holds the object without itself', () => {
  const o = withLastApplied({ apiVersion: 'v', kind: 'Policy', metadata: { name: 'p', annotations: { team: 'web', [LAST_APPLIED]: 'old' } }, spec: {} });
  const ann = (o.metadata as { annotations: Record<string, string> }).annotations;
  assert.equal(ann.team, 'web');
  assert.deepEqual(JSON.parse(ann[LAST_APPLIED] ?? ''), { apiVersion: 'v', kind: 'Policy', metadata: { name: 'p', annotations: { team: 'web' } }, spec: {} });
  const bare = withLastApplied({ kind: 'Policy', metadata: { name: 'q' } });
  assert.deepEqual(JSON.parse((bare.metadata as { annotations: Record<string, string> }).annotations[LAST_APPLIED] ?? ''), { kind: 'Policy', metadata: { name: 'q' } });
});
