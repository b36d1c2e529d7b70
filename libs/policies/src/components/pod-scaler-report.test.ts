import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePodScalerReport, parsePodScalerReportKey, podScalerReportKey, reportPrefix, type PodScalerReport } from './pod-scaler-report.js';

const REPORT: PodScalerReport = {
  kind: 'pod_scaler', agent: 'agent-a', leader_since_ms: 1_700_000_000_000,
  kubernetes_object: { namespace: 'shop', kind: 'Deployment', name: 'web' },
  actual_replicas: 2, configured_replicas: 4, desired_replicas: 4,
};

test('report keys: one per agent under its group, policy and component; parsed back; others refused', () => {
  const key = podScalerReportKey('sluice', 'default', 'scale', 'root.1', 'agent-a');
  assert.equal(key, 'sluice/reports/default/scale/root.1/agent-a');
  assert.ok(key.startsWith(reportPrefix('sluice')));
  assert.deepEqual(parsePodScalerReportKey('sluice', key), { agentGroup: 'default', policy: 'scale', componentId: 'root.1', agent: 'agent-a' });
  for (const bad of ['sluice/decisions/default/scale/root.1', 'sluice/reports/default/scale/root.1', 'sluice/reports/default/scale/root.1/a/b', 'sluice/reports/default//root.1/a', 'other/reports/default/scale/root.1/a']) {
    assert.equal(parsePodScalerReportKey('sluice', bad), undefined, bad);
  }
});

test('reports parse; bad ones are refused naming the field', () => {
  assert.deepEqual(parsePodScalerReport(JSON.stringify(REPORT)), { ok: true, value: REPORT });
  assert.deepEqual(parsePodScalerReport(JSON.stringify({ ...REPORT, desired_replicas: null, extra: 1 })), { ok: true, value: { ...REPORT, desired_replicas: null } });
  const bad: [string, RegExp][] = [
    ['{', /not JSON/],
    ['[]', /want an object/],
    ['null', /want an object/],
    [JSON.stringify({ ...REPORT, kind: 'sampler' }), /^kind/],
    [JSON.stringify({ ...REPORT, agent: '' }), /^agent/],
    [JSON.stringify({ ...REPORT, leader_since_ms: 'now' }), /^leader_since_ms/],
    [JSON.stringify({ ...REPORT, kubernetes_object: 'web' }), /^kubernetes_object:/],
    [JSON.stringify({ ...REPORT, kubernetes_object: { namespace: 'shop', kind: 'Deployment' } }), /kubernetes_object\.name/],
    [JSON.stringify({ ...REPORT, actual_replicas: -1 }), /^actual_replicas/],
    [JSON.stringify({ ...REPORT, configured_replicas: 1.5 }), /^configured_replicas/],
    [JSON.stringify({ ...REPORT, configured_replicas: 2 ** 31 }), /^configured_replicas/],
    [JSON.stringify({ ...REPORT, desired_replicas: '4' }), /^desired_replicas/],
    [JSON.stringify({ ...REPORT, desired_replicas: undefined }), /^desired_replicas/],
  ];
  for (const [raw, error] of bad) {
    const r = parsePodScalerReport(raw);
    assert.equal(r.ok, false, raw);
    if (!r.ok) assert.match(r.error, error, raw);
  }
});
