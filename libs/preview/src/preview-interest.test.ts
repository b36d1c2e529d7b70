import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileLabelMatcher } from '@sluice/selectors';
import { Engine } from '@sluice/flowcontrol';
import { PreviewRegistry } from './index.js';

const all = compileLabelMatcher({});

test('a preview makes its control point\'s header interest everything while it runs, of either kind; the last one ending takes it back', async () => {
  const engine = new Engine();
  const registry = new PreviewRegistry();
  engine.addObserver(registry);
  const before = engine.headerInterest('ingress');
  assert.equal(before.all, false);

  const http = registry.start({ kind: 'http', controlPoint: 'ingress', service: 'any', samples: 5, matcher: all, waitMs: 60_000 });
  const during = engine.headerInterest('ingress');
  assert.equal(during.all, true);
  assert.ok(during.generation > before.generation);
  assert.equal(engine.headerInterest('egress').all, false, 'other control points keep theirs');

  const labels = registry.start({ kind: 'labels', controlPoint: 'ingress', service: 'any', samples: 5, matcher: all, waitMs: 60_000 });
  http.cancel();
  await http.result;
  assert.equal(engine.headerInterest('ingress').all, true, 'a labels preview still runs');
  labels.cancel();
  await labels.result;
  const after = engine.headerInterest('ingress');
  assert.equal(after.all, false);
  assert.ok(after.generation > during.generation);
});

test('a preview that ends by its wait gives the interest back', async () => {
  const engine = new Engine();
  const registry = new PreviewRegistry();
  engine.addObserver(registry);
  const p = registry.start({ kind: 'labels', controlPoint: 'cp', service: 'any', samples: 5, matcher: all, waitMs: 20 });
  assert.equal(engine.headerInterest('cp').all, true);
  await p.result;
  assert.equal(engine.headerInterest('cp').all, false);
});
