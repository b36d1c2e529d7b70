// docs/guides/kubernetes.md, done in the order written, works: the preview is asked for before the
// load is sent (a preview only sees requests that arrive after it), controller routes go to the
// controller (over TLS), the images come first, and the troubleshooting section covers the usual
// failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { read } from './support/chart-checks.js';

const guide = read('docs', 'guides', 'kubernetes.md');
const commands = [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');

test('the preview starts before the load that it should see', () => {
  const preview = commands.indexOf('/v1/flowcontrol/preview/http_requests/');
  const load = commands.indexOf('kubectl -n shop run load');
  assert.ok(preview >= 0 && load >= 0, 'both steps are there');
  assert.ok(preview < load, 'the preview is asked for first');
  assert.match(commands.slice(preview, load), /-d '[^']*' > preview\.json &\n/, 'in the background, so the load can follow');
});

test('controller routes go to the controller\'s port, over TLS; agent routes to the agent', () => {
  for (const m of commands.matchAll(/curl [^\n]*(?:\\\n[^\n]*)*/g)) {
    const call = m[0];
    if (/\/v1\/policies\/(?!enforced)/.test(call)) {
      assert.match(call, /--cacert sluice-ca\.crt .*https:\/\/sluice-controller\.sluice-system\.svc:8443\//s, call);
    }
  }
  assert.match(commands, /port-forward service\/sluice-controller 8443:8080/);
});

test('images first, troubleshooting last', () => {
  assert.ok(guide.indexOf('(images.md)') >= 0 && guide.indexOf('(images.md)') < guide.indexOf('## 1. Install the controller'));
  const trouble = guide.slice(guide.indexOf('## Troubleshooting'));
  for (const topic of ['**The tap lets everything through**', '**No peers', '**A policy is `failed`.**', '**Pods are not injected (the webhook is not called).**']) {
    assert.ok(trouble.includes(topic), topic);
  }
  assert.doesNotMatch(guide, /`helm` is not used by the tests/);
});
