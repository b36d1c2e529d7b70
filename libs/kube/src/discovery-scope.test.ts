import assert from 'node:assert/strict';
import { test } from 'node:test';
import { discoveryScope } from './discovery-scope.js';

test('a sidecar keeps its pod, a daemonset its node, else everything', () => {
  const all = { NODE_NAME: 'n1', POD_NAME: 'p', POD_NAMESPACE: 'ns' };
  assert.deepEqual(discoveryScope(all, 'KUBERNETES_SIDECAR').scope, { pod: { name: 'p', namespace: 'ns' } });
  assert.deepEqual(discoveryScope(all, 'KUBERNETES_DAEMONSET').scope, { nodeName: 'n1' });
  assert.deepEqual(discoveryScope(all, 'LINUX_BARE_METAL').scope, { nodeName: 'n1' });
  assert.deepEqual(discoveryScope({ POD_NAME: 'p', POD_NAMESPACE: 'ns' }, 'LINUX_BARE_METAL').scope, { pod: { name: 'p', namespace: 'ns' } });
  assert.deepEqual(discoveryScope({ POD_NAME: 'p' }, 'KUBERNETES_SIDECAR').scope, {});
  assert.equal(discoveryScope({}, 'LINUX_BARE_METAL').describe, 'all endpoints');
});
