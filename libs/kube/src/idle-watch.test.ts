import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import { IdleWatch } from './idle-watch.js';
import { k8s } from './k8s.js';

function kubeConfig(server: string, skipTLSVerify = true): k8s.KubeConfig {
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server, skipTLSVerify }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kc;
}

async function serve(t: TestContext, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

interface Outcome {
  err: unknown;
  calls: number;
  afterMs: number;
}

function watchOnce(w: IdleWatch, events: string[]): Promise<Outcome> {
  const started = Date.now();
  let calls = 0;
  return new Promise((resolve) => {
    void w.watch('/api/v1/pods', { resourceVersion: '5' }, (phase, obj: { metadata?: { name?: string } }) => events.push(`${phase} ${obj.metadata?.name ?? ''}`), (err) => {
      calls++;
      // Report after a pause, so a second done call would be counted.
      setTimeout(() => resolve({ err, calls, afterMs: Date.now() - started }), 100);
    });
  });
}

const line = (name: string): string => JSON.stringify({ type: 'ADDED', object: { metadata: { name } } }) + '\n';

test('a silent watch ends cleanly (done(null), once) after the idle time, and its request is closed', async (t) => {
  let closed = false;
  let query = '';
  const url = await serve(t, (req, res) => {
    query = req.url ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(line('a'));
    req.socket.on('close', () => (closed = true));
  });
  const events: string[] = [];
  const out = await watchOnce(new IdleWatch(kubeConfig(url), 1000), events);
  assert.equal(out.err, null);
  assert.equal(out.calls, 1);
  assert.ok(out.afterMs >= 1000 && out.afterMs < 6000, `ended after ${out.afterMs} ms`);
  assert.deepEqual(events, ['ADDED a']);
  assert.match(query, /watch=true/);
  assert.match(query, /resourceVersion=5/);
  for (let i = 0; i < 40 && !closed; i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(closed, 'the watch request is aborted');
});

test('events keep a watch open past the idle time', async (t) => {
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    let n = 0;
    const timer = setInterval(() => {
      res.write(line(`p${n}`));
      if (++n === 6) clearInterval(timer);
    }, 250);
    res.on('close', () => clearInterval(timer));
  });
  const events: string[] = [];
  const out = await watchOnce(new IdleWatch(kubeConfig(url), 1000), events);
  assert.equal(out.err, null);
  assert.equal(events.length, 6);
  // 6 events 250 ms apart, then 1 s of silence: well past a single idle time.
  assert.ok(out.afterMs >= 2200, `ended after ${out.afterMs} ms`);
});

test('a watch the server closes ends at once with done(null)', async (t) => {
  const url = await serve(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(line('a'));
  });
  const events: string[] = [];
  const out = await watchOnce(new IdleWatch(kubeConfig(url), 5000), events);
  assert.equal(out.err, null);
  assert.equal(out.calls, 1);
  assert.ok(out.afterMs < 2000, `ended after ${out.afterMs} ms`);
  assert.deepEqual(events, ['ADDED a']);
});

test('a refused status and a refused connection end the watch with the error, once', async (t) => {
  const url = await serve(t, (_req, res) => {
    res.writeHead(410);
    res.end();
  });
  const gone = await watchOnce(new IdleWatch(kubeConfig(url), 5000), []);
  assert.equal((gone.err as { statusCode?: number }).statusCode, 410);
  assert.equal(gone.calls, 1);

  // A port nothing listens on: take a server's port and close it.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
  const refused = await watchOnce(new IdleWatch(kubeConfig(`http://127.0.0.1:${closedPort}`), 5000), []);
  assert.match(String((refused.err as Error).message), /ECONNREFUSED/);
  assert.equal(refused.calls, 1);
});

test('a watch that cannot be made rejects and never calls done (no idle timer left behind)', async (t) => {
  const url = await serve(t, (_req, res) => res.end());
  let calls = 0;
  // client-node refuses a plain-http server unless TLS verification is off.
  await assert.rejects(new IdleWatch(kubeConfig(url, false), 100).watch('/api/v1/pods', {}, () => undefined, () => calls++), /HTTP protocol is not allowed/);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(calls, 0);
});
