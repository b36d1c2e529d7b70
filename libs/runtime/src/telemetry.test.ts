import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { remoteWriteLabels } from './telemetry.js';

test('remote write labels: instance, agent_group, and pod and namespace in Kubernetes', () => {
  assert.deepEqual(remoteWriteLabels('agent', { agentGroup: 'g', env: { POD_NAME: 'agent-7', POD_NAMESPACE: 'shop' } }),
    { job: 'sluice-agent', instance: 'agent-7', agent_group: 'g', pod: 'agent-7', namespace: 'shop' });
  assert.deepEqual(remoteWriteLabels('controller', { env: {} }), { job: 'sluice-controller', instance: hostname() });
  assert.deepEqual(remoteWriteLabels('agent', { agentGroup: 'default', env: { POD_NAME: '', POD_NAMESPACE: '' } }),
    { job: 'sluice-agent', instance: hostname(), agent_group: 'default' });
});
