import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// A resolve hook that refuses @kubernetes/client-node's index (its ApiException module alone is allowed).
const REFUSE = `data:text/javascript,${encodeURIComponent(`
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (/@kubernetes\\\\/client-node\\\\/dist\\\\/index\\\\.js$/.test(r.url)) throw new Error('client-node loaded: ' + r.url);
  return r;
}\`));
`)}`;
const here = fileURLToPath(new URL('.', import.meta.url));

function importWithout(entry: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', REFUSE, '--input-type=module', '-e', `await import(${JSON.stringify(entry)}); console.log('ok')`], { cwd: here, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr };
}

test('@sluice/kube/light loads without @kubernetes/client-node', () => {
  const r = importWithout('@sluice/kube/light');
  assert.equal(r.status, 0, r.stderr);
});

test('the hook does refuse client-node (the index of @sluice/kube loads it)', () => {
  const r = importWithout('@sluice/kube');
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /client-node loaded/);
});

test('light exports are the same classes as the full index (instanceof holds across both)', async () => {
  const light = await import('./light.js');
  const full = await import('./index.js');
  assert.equal(light.KubeConfigError, full.KubeConfigError);
  assert.equal(light.PodScalers, full.PodScalers);
  assert.equal(light.apiStatus(new full.k8s.ApiException(409, 'conflict', {}, {})), 409);
  assert.equal(light.apiStatus(new Error('other')), undefined);
});
