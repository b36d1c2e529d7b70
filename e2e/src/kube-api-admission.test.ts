// The test API server's validating admission: which writes reach a webhook (rules, selectors),
// what the AdmissionReview holds, and what a denial, a warning, a slow, broken or lying webhook
// does under each failurePolicy. The webhook is a small HTTP server of the test (clientConfig.url);
// the controller's own webhook is in kube-api-policy-webhook.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';

type Obj = Record<string, unknown>;
type Reply = (request: Obj) => { status?: number; body?: unknown; delayMs?: number };

async function webhookServer(t: test.TestContext): Promise<{ url: string; seen: Obj[]; reply: { fn: Reply } }> {
  const seen: Obj[] = [];
  const reply: { fn: Reply } = { fn: (r) => ({ body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.uid, allowed: true } } }) };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = (JSON.parse(Buffer.concat(chunks).toString()) as { request: Obj }).request;
      seen.push(request);
      const r = reply.fn(request);
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
      };
      if (r.delayMs) setTimeout(send, r.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/validate`, seen, reply };
}

const answer = (r: Obj, response: Obj): { body: unknown } => ({ body: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.uid, ...response } } });

async function configure(api: TestKubeApi, url: string, webhook: Obj): Promise<void> {
  const cfg = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'test' },
    webhooks: [{ name: 'cm.validate.test', admissionReviewVersions: ['v1'], sideEffects: 'None', clientConfig: { url },
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }], ...webhook }] };
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify(cfg));
}

const cm = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = { a: '1' }): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data });

async function post(api: TestKubeApi, path: string, body: string): Promise<{ status: number; json: Obj; warning: string | null }> {
  const r = await fetch(`${api.url}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
  return { status: r.status, json: (await r.json()) as Obj, warning: r.headers.get('warning') };
}

test('matching writes are sent as AdmissionReviews; others are not', async (t) => {
  const api = await startTestKubeApi(t);
  const hook = await webhookServer(t);
  await configure(api, hook.url, { objectSelector: { matchExpressions: [{ key: 'skip', operator: 'DoesNotExist' }] } });
  await api.kubectlOk(['apply', '-f', '-'], cm('one'));
  assert.equal(hook.seen.length, 1);
  const r = hook.seen[0];
  assert.match(String(r.uid), /^[0-9a-f-]{36}$/);
  assert.deepEqual([r.kind, r.resource, r.operation, r.name, r.namespace, r.dryRun], [{ group: '', version: 'v1', kind: 'ConfigMap' }, { group: '', version: 'v1', resource: 'configmaps' }, 'CREATE', 'one', 'default', false]);
  assert.deepEqual((r.object as { data: unknown }).data, { a: '1' });
  assert.equal(r.oldObject, null);
  await api.kubectlOk(['apply', '-f', '-'], cm('one', {}, { a: '2' }));
  assert.equal(hook.seen.length, 2);
  assert.equal(hook.seen[1].operation, 'UPDATE');
  assert.deepEqual((hook.seen[1].oldObject as { data: unknown }).data, { a: '1' });
  // Not matched: another resource, a delete (not in the rule's operations), an object the selector leaves out.
  await api.kubectlOk(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } }));
  await api.kubectlOk(['delete', 'configmap', 'one']);
  await api.kubectlOk(['apply', '-f', '-'], cm('skipped', { skip: 'yes' }));
  assert.equal(hook.seen.length, 2);
});

test('a denial is the webhook\'s code and message (403 when it gives none); warnings reach kubectl', async (t) => {
  const api = await startTestKubeApi(t);
  const hook = await webhookServer(t);
  await configure(api, hook.url, {});
  hook.reply.fn = (r) => answer(r, { allowed: false, status: { code: 422, reason: 'Invalid', message: 'data.a: must be even' } });
  const denied = await api.kubectl(['apply', '-f', '-'], cm('odd'));
  assert.notEqual(denied.code, 0);
  assert.match(denied.stderr, /admission webhook "cm\.validate\.test" denied the request: data\.a: must be even/);
  assert.deepEqual(api.server.objects('', 'configmaps', 'default').map((o) => o.metadata.name).filter((n) => n === 'odd'), []);
  hook.reply.fn = (r) => answer(r, { allowed: false });
  const bare = await post(api, '/api/v1/namespaces/default/configmaps', cm('bare'));
  assert.deepEqual([bare.status, bare.json.reason, bare.json.message], [403, 'Forbidden', 'admission webhook "cm.validate.test" denied the request: without explanation']);
  hook.reply.fn = (r) => answer(r, { allowed: true, warnings: ['data.a is "1", say "one"'] });
  const warned = await api.kubectl(['apply', '-f', '-'], cm('warned'));
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /Warning: data\.a is "1", say "one"/);
});

test('a webhook that is slow, down, answers 500, not JSON or another uid fails the write under Fail and is skipped under Ignore', async (t) => {
  const api = await startTestKubeApi(t);
  const hook = await webhookServer(t);
  const cases: [Reply | 'down', RegExp][] = [
    [(r) => ({ ...answer(r, { allowed: true }), delayMs: 3000 }), /context deadline exceeded/],
    [() => ({ status: 500, body: 'oops' }), /the server answered 500: oops/],
    [() => ({ body: 'not json' }), /the answer is not JSON/],
    [(r) => answer({ ...r, uid: 'other' }, { allowed: true }), /expected response\.uid=".*", got "other"/],
    ['down', /ECONNREFUSED/],
  ];
  let n = 0;
  for (const policy of ['Fail', 'Ignore']) {
    for (const [reply, message] of cases) {
      const url = reply === 'down' ? 'http://127.0.0.1:9/validate' : hook.url;
      if (reply !== 'down') hook.reply.fn = reply;
      await configure(api, url, { failurePolicy: policy, timeoutSeconds: 1 });
      const r = await post(api, '/api/v1/namespaces/default/configmaps', cm(`c${n++}`));
      if (policy === 'Fail') {
        assert.equal(r.status, 500, JSON.stringify(r.json));
        assert.match(String(r.json.message), /^Internal error occurred: failed calling webhook "cm\.validate\.test": /);
        assert.match(String(r.json.message), message);
      } else assert.equal(r.status, 201, JSON.stringify(r.json));
    }
  }
  assert.equal(api.server.objects('', 'configmaps', 'default').filter((o) => /^c\d+$/.test(o.metadata.name)).length, cases.length);
});

test('namespaceSelector reads the namespace\'s labels; a dry run reaches only webhooks without side effects', async (t) => {
  const api = await startTestKubeApi(t);
  const hook = await webhookServer(t);
  await api.kubectlOk(['apply', '-f', '-'], 'apiVersion: v1\nkind: Namespace\nmetadata: {name: checked, labels: {team: a}}\n');
  await configure(api, hook.url, { namespaceSelector: { matchLabels: { team: 'a' } }, sideEffects: 'Unknown' });
  hook.reply.fn = (r) => answer(r, { allowed: false, status: { message: 'no' } });
  await api.kubectlOk(['apply', '-f', '-'], cm('free'));
  const inChecked = await post(api, '/api/v1/namespaces/checked/configmaps', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }));
  assert.equal(inChecked.status, 403);
  const dry = await post(api, '/api/v1/namespaces/checked/configmaps?dryRun=All', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y' } }));
  assert.equal(dry.status, 500);
  assert.match(String(dry.json.message), /side effects and the request is a dry run/);
});
