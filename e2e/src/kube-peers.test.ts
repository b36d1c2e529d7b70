// Two real agents find each other through the Kubernetes API alone (etcd away): the test API
// server holds the peers Service's EndpointSlices listing both agents' loopback dist-cache
// addresses (one slice per agent, each with its own ports named like the chart's), every agent
// skips its own pod IP, and each agent's GET /v1/peers lists the other, alive, found by
// `kubernetes`. Removing a slice takes the peer out of the source.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestKubeApi, type TestKubeApi } from './kube-api/index.js';
import { get } from './support/clients.js';
import { startAgent, until } from './support/processes.js';
import { freePort } from './support/ports.js';

interface PeerView { id: string; state: string; sources: string[] }

async function kpost(api: TestKubeApi, path: string, obj: unknown): Promise<void> {
  const r = await fetch(`${api.url}${path}`, { method: 'POST', body: JSON.stringify(obj), headers: { 'content-type': 'application/json' } });
  assert.equal(r.status, 201, await r.text());
}

const SLICES = '/apis/discovery.k8s.io/v1/namespaces/sluice/endpointslices';

test('agents find their dist-cache peers through the peers Service EndpointSlices', { timeout: 60_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  await kpost(api, '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sluice' } });
  const deadEtcd = await freePort('127.0.0.1');
  const pods = await Promise.all(['127.0.0.2', '127.0.0.3'].map(async (ip) => ({ ip, ops: await freePort(ip), ml: await freePort(ip) })));
  for (const [i, p] of pods.entries()) {
    await kpost(api, SLICES, {
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: { name: `peers-${i}`, namespace: 'sluice', labels: { 'kubernetes.io/service-name': 'agents-peers' } },
      addressType: 'IPv4',
      endpoints: [{ addresses: [p.ip], conditions: { ready: true } }],
      ports: [{ name: 'dist-cache', port: p.ops, protocol: 'TCP' }, { name: 'memberlist', port: p.ml, protocol: 'TCP' }],
    });
  }
  // A slice of another Service in the namespace is not read.
  await kpost(api, SLICES, {
    apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'other', namespace: 'sluice', labels: { 'kubernetes.io/service-name': 'other' } },
    addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.4'] }], ports: [{ name: 'dist-cache', port: 1 }, { name: 'memberlist', port: 2 }],
  });
  const agents = await Promise.all(pods.map((p) => startAgent(t, {
    ready: false,
    env: {
      KUBECONFIG: api.kubeconfig,
      POD_NAMESPACE: 'sluice',
      POD_IP: p.ip,
      SLUICE_AGENT_PEER_DISCOVERY_KUBERNETES_SERVICE: 'agents-peers',
      SLUICE_AGENT_ETCD_ENDPOINTS: JSON.stringify([`http://127.0.0.1:${deadEtcd}`]),
      SLUICE_AGENT_SERVICE_DISCOVERY_KUBERNETES_ENABLED: 'false',
      SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR: `${p.ip}:${p.ops}`,
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: `${p.ip}:${p.ops}`,
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: `${p.ip}:${p.ml}`,
    },
  })));
  const peersOf = async (base: string): Promise<PeerView[]> => {
    const r = await get(`${base}/v1/peers`);
    assert.equal(r.status, 200, r.text);
    const body = JSON.parse(r.text) as { peers?: PeerView[] } | PeerView[];
    return Array.isArray(body) ? body : body.peers ?? [];
  };
  for (const [i, a] of agents.entries()) {
    const other = pods[1 - i]!;
    const otherId = `${other.ip}:${other.ops}`;
    let last: PeerView[] = [];
    await until(async () => {
      last = await peersOf(a.base);
      return last.some((p) => p.id === otherId && p.state === 'alive' && p.sources.includes('kubernetes'));
    }, 30_000, `agent ${i} sees ${otherId} alive through kubernetes`).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify(last)}`);
    });
    const self = `${pods[i]!.ip}:${pods[i]!.ops}`;
    assert.ok(!last.some((p) => p.id === self), 'its own pod is skipped');
    assert.ok(!last.some((p) => p.id.startsWith('127.0.0.4')), 'another Service is not read');
    assert.deepEqual(last.find((p) => p.id === otherId)?.sources, ['kubernetes'], 'etcd is away: kubernetes alone found it');
  }
});
