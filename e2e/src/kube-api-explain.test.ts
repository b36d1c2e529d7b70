// kubectl explain against the test API server: the CRDs' schemas are published under /openapi/v3
// (kubectl explain reads OpenAPI v3), so the descriptions generated from the policy schema are
// what kubectl prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startTestKubeApi } from './kube-api/index.js';
import { ROOT } from './support/processes.js';

test('kubectl explain prints the Policy CRD\'s descriptions of spec and status', async (t) => {
  const api = await startTestKubeApi(t);
  const before = await api.kubectl(['explain', 'policy']);
  assert.notEqual(before.code, 0, 'no Policy kind before the CRD');
  await api.kubectlOk(['apply', '-f', join(ROOT, 'crds', 'policies.sluice.dev.yaml')]);

  const circuit = await api.kubectlOk(['explain', 'policy.spec.circuit']);
  assert.match(circuit, /KIND:\s+Policy/);
  assert.match(circuit, /VERSION:\s+v1alpha1/);
  assert.match(circuit, /The signal-processing circuit of the policy\./);
  assert.match(circuit, /components\s+<\[\]Object>\s+The components, connected by signal names\./);
  assert.match(circuit, /evaluation_interval\s+<string>\s+How often the circuit runs/);

  const status = await api.kubectlOk(['explain', 'policy.status']);
  assert.match(status, /Written by the controller: how applying the spec went\./);
  assert.match(status, /message\s+<string>\s+When `failed`, every compile problem as `<JSON path>: <problem>`/);
  assert.match(status, /observedGeneration\s+<integer>\s+The `metadata.generation` of the spec the status is about\./);
  assert.match(status, /status\s+<string>\s+enum: uploading, uploaded, failed\s+`uploading` while the controller applies the spec/);
  const condition = await api.kubectlOk(['explain', 'policy.status.conditions.reason']);
  assert.match(condition, /Why, in one word: `PolicyUploaded`, `PolicyFailed` or `PolicyUploading`\./);
  // metadata resolves to the ObjectMeta schema.
  assert.match(await api.kubectlOk(['explain', 'policy.metadata.labels']), /labels\s+<map\[string\]string>/);

  // The group-version document names the schema by its group-version-kind; built-in kinds have none.
  const root = await fetch(`${api.url}/openapi/v3`).then((r) => r.json() as Promise<{ paths: Record<string, { serverRelativeURL: string }> }>);
  const doc = await fetch(`${api.url}${root.paths['apis/sluice.dev/v1alpha1'].serverRelativeURL}`).then((r) => r.json() as Promise<{ components: { schemas: Record<string, { 'x-kubernetes-group-version-kind': unknown }> } }>);
  assert.deepEqual(doc.components.schemas['dev.sluice.v1alpha1.Policy']['x-kubernetes-group-version-kind'], [{ group: 'sluice.dev', version: 'v1alpha1', kind: 'Policy' }]);
  const apps = await fetch(`${api.url}${root.paths['apis/apps/v1'].serverRelativeURL}`).then((r) => r.json() as Promise<{ components: { schemas: object } }>);
  assert.deepEqual(apps.components.schemas, {});
});
