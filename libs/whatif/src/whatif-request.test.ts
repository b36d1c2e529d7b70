import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from '@sluice/errors';
import { parseWhatIfRequest, WHATIF_DEFAULT_SAMPLES, WHATIF_DEFAULT_WAIT_MS } from './whatif-request.js';

const spec = { circuit: { components: [] } };

test('what-if request: a spec or a Policy resource, defaults filled in', () => {
  assert.deepEqual(parseWhatIfRequest({ policy: spec, control_point: 'ingress' }), {
    name: 'what-if', spec, controlPoint: 'ingress', samples: WHATIF_DEFAULT_SAMPLES, waitMs: WHATIF_DEFAULT_WAIT_MS,
  });
  const r = parseWhatIfRequest({ policy: { kind: 'Policy', metadata: { name: 'limit' }, spec }, control_point: 'cp', samples: '7', wait_ms: 500, agent_group: 'g', service: 's', label_key: 'user' });
  assert.deepEqual(r, { name: 'limit', spec, controlPoint: 'cp', samples: 7, waitMs: 500, agentGroup: 'g', service: 's', labelKey: 'user' });
  assert.equal(parseWhatIfRequest({ policy: { kind: 'Policy', metadata: { name: 'limit' }, spec }, name: 'other', control_point: 'cp' }).name, 'other');
});

test('what-if request: each bad part is 400 naming its field', () => {
  const cases: [unknown, string][] = [
    [undefined, 'body'],
    [[], 'body'],
    [{ policy: spec, control_point: 'cp', extra: 1 }, 'extra'],
    [{ control_point: 'cp' }, 'policy'],
    [{ policy: 'x', control_point: 'cp' }, 'policy'],
    [{ policy: { kind: 'Deployment', spec }, control_point: 'cp' }, 'policy.kind'],
    [{ policy: { kind: 'Policy', metadata: { name: 'p' } }, control_point: 'cp' }, 'policy.spec'],
    [{ policy: spec }, 'control_point'],
    [{ policy: spec, control_point: '' }, 'control_point'],
    [{ policy: spec, control_point: 'cp', samples: 0 }, 'samples'],
    [{ policy: spec, control_point: 'cp', samples: 1001 }, 'samples'],
    [{ policy: spec, control_point: 'cp', samples: 1.5 }, 'samples'],
    [{ policy: spec, control_point: 'cp', wait_ms: 30_001 }, 'wait_ms'],
    [{ policy: spec, control_point: 'cp', agent_group: '' }, 'agent_group'],
    [{ policy: spec, control_point: 'cp', service: 5 }, 'service'],
    [{ policy: spec, control_point: 'cp', label_key: 'x'.repeat(600) }, 'label_key'],
  ];
  for (const [body, field] of cases) {
    assert.throws(() => parseWhatIfRequest(body), (e: unknown) => e instanceof InvalidArgumentError && e.field === field, `${JSON.stringify(body)?.slice(0, 80)} → ${field}`);
  }
});
