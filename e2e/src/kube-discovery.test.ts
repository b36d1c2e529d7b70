// A real agent with Kubernetes service discovery against the test API server: EndpointSlices
// added, changed and removed move flows between services within a second (measured through
// GET /v1/discovery/entities and a preview with ?service=), static entities stay beside them,
// unusable slices are counted without harm, and with the API away for 30 s the agent keeps its
// entities, stays ready, and catches up when the API returns.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { startEtcdServer } from '@sluice/etcd/testing';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';
import { checkHttpRequest, get, grpcClient, post, unaryCall } from './support/clients.js';
import { processEnv, ROOT, spawnProc, startAgent, until } from './support/processes.js';

interface EntityView { ip_address: string; uid: string; name?: string; namespace?: string; node_name?: string; services?: string[] }

const CART = 'cart.shop.svc.cluster.local';
const CHECKOUT = 'checkout.shop.svc.cluster.local';

async function kpost(api: TestKubeApi, path: string, obj: unknown): Promise<void> {
  const r = await fetch(`${api.url}${path}`, { method: 'POST', body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, await r.text());
}

async function kput(api: TestKubeApi, path: string, obj: unknown): Promise<void> {
  const r = await fetch(`${api.url}${path}`, { method: 'PUT', body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 200, await r.text());
}

async function kdelete(api: TestKubeApi, path: string): Promise<void> {
  const r = await fetch(`${api.url}${path}`, { method: 'DELETE' });
  assert.equal(r.status, 200, await r.text());
}

const slice = (name: string, service: string | undefined, endpoints: unknown[], addressType = 'IPv4'): object => ({
  apiVersion: 'discovery.k8s.io/v1',
  kind: 'EndpointSlice',
  metadata: { name, namespace: 'shop', labels: service ? { 'kubernetes.io/service-name': service } : {} },
  addressType,
  endpoints,
  ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
});

const pod = (ip: string, name: string, node = 'node-a'): object => ({ addresses: [ip], conditions: { ready: true }, nodeName: node, targetRef: { kind: 'Pod', name, namespace: 'shop', uid: `uid-${name}` } });

const SLICES = '/apis/discovery.k8s.io/v1/namespaces/shop/endpointslices';

test('agent service discovery from EndpointSlices and Services, through changes, bad slices and the API away', { timeout: 150_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  await kpost(api, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
  await kpost(api, '/api/v1/namespaces/shop/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'cart' }, spec: { selector: { app: 'cart' }, ports: [{ port: 80 }] } });
  await kpost(api, SLICES, slice('cart-1', 'cart', [pod('10.1.0.5', 'cart-0'), pod('10.1.0.6', 'cart-1', 'node-b')]));
  const etcd = await startEtcdServer();
  t.after(() => etcd.close());
  const agent = await startAgent(t, {
    env: {
      KUBECONFIG: api.kubeconfig,
      SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([etcd.endpoint]),
      SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '3s',
      SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '10.9.9.9', uid: 'static-vm', name: 'vm', services: ['legacy.svc'] }]),
    },
  });
  const entities = async (query = ''): Promise<{ entities: EntityView[]; next_page_token: string; total: number }> => {
    const r = await get(`${agent.base}/v1/discovery/entities${query}`);
    assert.equal(r.status, 200, r.text);
    return JSON.parse(r.text) as { entities: EntityView[]; next_page_token: string; total: number };
  };
  const servicesOf = async (ip: string): Promise<string[] | undefined> => (await entities(`?ip=${ip}`)).entities[0]?.services;

  await t.test('entities from slices and services merge with static ones; the entity carries uid, name, namespace, node', async () => {
    await until(async () => (await servicesOf('10.1.0.6'))?.[0] === CART, 10_000, 'slice entities');
    const all = await entities();
    const byIp = new Map(all.entities.map((e) => [e.ip_address, e]));
    assert.deepEqual(byIp.get('10.1.0.5'), { ip_address: '10.1.0.5', uid: 'uid-cart-0', name: 'cart-0', namespace: 'shop', node_name: 'node-a', services: [CART] });
    assert.deepEqual(byIp.get('10.9.9.9')?.services, ['legacy.svc']);
    const clusterIp = [...byIp.values()].find((e) => e.name === 'cart' && e.uid !== 'uid-cart-0');
    assert.deepEqual(clusterIp?.services, [CART], 'the Service cluster IP is an entity of the service');
    assert.equal(all.total, 4);
    const page = await entities('?limit=2');
    assert.equal(page.entities.length, 2);
    assert.notEqual(page.next_page_token, '');
    const bad = await get(`${agent.base}/v1/discovery/entities?limit=0`);
    assert.equal(bad.status, 400);
    assert.equal((JSON.parse(bad.text) as { code: number }).code, 3);
  });

  await t.test('a preview with ?service= sees only the flows of that service', async () => {
    const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
    const toCart = { ...checkHttpRequest('ingress', '/cart'), destination: { address: '10.1.0.5', port: 8080 } };
    const toOther = { ...checkHttpRequest('ingress', '/other'), destination: { address: '10.7.7.7', port: 8080 } };
    let sending = true;
    const pump = (async () => {
      for (let i = 0; sending && i < 300; i++) {
        await unaryCall(checkHttp, 'CheckHTTP', i % 2 ? toCart : toOther);
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const r = await post(`${agent.base}/v1/flowcontrol/preview/http_requests/ingress?samples=3&service=${CART}`, '{}');
    sending = false;
    await pump;
    assert.equal(r.status, 200, r.text);
    const samples = (JSON.parse(r.text) as { samples: { attributes: { request: { http: { path: string } } } }[] }).samples;
    assert.equal(samples.length, 3);
    assert.ok(samples.every((s) => s.attributes.request.http.path === '/cart'), JSON.stringify(samples.map((s) => s.attributes.request.http.path)));
  });

  await t.test('an endpoint moved from one service to another, then removed, follows within a second', async () => {
    await kpost(api, '/api/v1/namespaces/shop/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'checkout' }, spec: { ports: [{ port: 80 }] } });
    let start = Date.now();
    await kput(api, `${SLICES}/cart-1`, slice('cart-1', 'cart', [pod('10.1.0.6', 'cart-1', 'node-b')]));
    await kpost(api, SLICES, slice('checkout-1', 'checkout', [pod('10.1.0.5', 'cart-0')]));
    await until(async () => (await servicesOf('10.1.0.5'))?.join() === CHECKOUT, 1000, 'moved within 1 s');
    const moved = Date.now() - start;
    // In two services at once: the services merge.
    await kput(api, `${SLICES}/cart-1`, slice('cart-1', 'cart', [pod('10.1.0.6', 'cart-1', 'node-b'), pod('10.1.0.5', 'cart-0')]));
    await until(async () => (await servicesOf('10.1.0.5'))?.join() === [CART, CHECKOUT].join(), 1000, 'in both within 1 s');
    start = Date.now();
    await kdelete(api, `${SLICES}/checkout-1`);
    await kput(api, `${SLICES}/cart-1`, slice('cart-1', 'cart', [pod('10.1.0.6', 'cart-1', 'node-b')]));
    await until(async () => (await servicesOf('10.1.0.5')) === undefined, 1000, 'removed within 1 s');
    const removed = Date.now() - start;
    // 20 more moves between two services, each within a second.
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const svc = i % 2 === 0 ? 'checkout' : 'cart';
      const t0 = Date.now();
      await kput(api, `${SLICES}/cart-1`, slice('cart-1', svc, [pod('10.1.0.6', 'cart-1', 'node-b')]));
      await until(async () => (await servicesOf('10.1.0.6'))?.join() === `${svc}.shop.svc.cluster.local`, 1000, `move ${i} within 1 s`);
      times.push(Date.now() - t0);
    }
    times.sort((a, b) => a - b);
    t.diagnostic(`EndpointSlice change to entity map (PUT to GET /v1/discovery/entities, 20 ms polls): first move ${moved} ms, removal ${removed} ms; 20 moves p50 ${times[10]} ms, max ${times[19]} ms`);
    await kput(api, `${SLICES}/cart-1`, slice('cart-1', 'cart', [pod('10.1.0.6', 'cart-1', 'node-b')]));
    await until(async () => (await servicesOf('10.1.0.6'))?.join() === CART, 1000, 'back in cart');
  });

  await t.test('EndpointSlices with missing or bad fields are skipped and counted; the agent goes on', async () => {
    await kpost(api, SLICES, slice('no-label', undefined, [pod('10.2.0.1', 'x')]));
    await kpost(api, SLICES, slice('fqdn', 'cart', [{ addresses: ['cart.example.com'] }], 'FQDN'));
    await kpost(api, SLICES, slice('holes', 'cart', [{}, { addresses: [] }, { addresses: ['not-an-ip'] }, { addresses: [42] }, null, pod('10.2.0.9', 'ok-pod')]));
    await kpost(api, SLICES, { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'bare', namespace: 'shop', labels: { 'kubernetes.io/service-name': 'cart' } } });
    await until(async () => (await servicesOf('10.2.0.9'))?.[0] === CART, 2000, 'the good endpoint of a slice with holes');
    const metrics = (await get(`${agent.base}/metrics`)).text;
    const count = (reason: string): number => Number(new RegExp(`^sluice_kubernetes_discovery_skipped_total\\{reason="${reason}"\\} (\\d+)`, 'm').exec(metrics)?.[1] ?? 0);
    assert.equal(count('no_service_label'), 1);
    assert.equal(count('unsupported_address_type'), 1);
    assert.equal(count('no_addresses'), 3);
    assert.equal(count('bad_address'), 2);
    assert.equal((await servicesOf('10.2.0.1')), undefined);
    assert.equal((await get(`${agent.base}/v1/status/system/readiness`)).status, 200);
  });

  await t.test('the API away for 30 s: entities kept, readiness stays 200 and shows the state; changes made meanwhile are caught up', async () => {
    const before = (await entities()).total;
    await api.server.stopServing();
    const awayUntil = Date.now() + 30_000;
    await until(async () => /unavailable/.test((await get(`${agent.base}/v1/status/system/readiness`)).text), 15_000, 'readiness shows the API unavailable');
    while (Date.now() < awayUntil) {
      assert.equal((await entities()).total, before);
      assert.equal((await servicesOf('10.1.0.6'))?.[0], CART);
      await new Promise((r) => setTimeout(r, 2000));
    }
    assert.equal((await get(`${agent.base}/v1/status/system/readiness`)).status, 200);
    await api.server.resumeServing();
    // Changed before the agent reconnects: replayed from its resourceVersion (or relisted).
    await kdelete(api, `${SLICES}/cart-1`);
    await kpost(api, SLICES, slice('checkout-2', 'checkout', [pod('10.1.0.6', 'cart-1', 'node-b')]));
    await until(async () => (await servicesOf('10.1.0.6'))?.join() === CHECKOUT, 40_000, 'caught up after the API returned');
    await until(async () => /Kubernetes API connected/.test((await get(`${agent.base}/v1/status/system/readiness`)).text), 5000, 'readiness back to connected');
  });
});

test('an agent whose KUBECONFIG cannot be read exits 2 naming it, before binding a port', async (t) => {
  const proc = spawnProc(t, join(ROOT, 'bin', 'sluice-agent'), [], processEnv('agent', { KUBECONFIG: '/nonexistent/kubeconfig' }));
  const exit = await proc.exited;
  assert.equal(exit.code, 2, proc.output());
  assert.match(proc.output(), /KUBECONFIG names no file that exists: \/nonexistent\/kubeconfig/);
  assert.doesNotMatch(proc.output(), /serving gRPC and HTTP/);
});
