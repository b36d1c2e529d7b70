// Two real agents configured as the injector configures a sidecar agent (cloudext.installation_mode
// KUBERNETES_SIDECAR, POD_NAMESPACE of a workload namespace with no peers Service, a Kubernetes API
// at hand) find each other through etcd (<namespace>/peers/<group>/): a limit is shared, not per
// replica. They do not look for a peers Service nothing creates, and say so.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startTestKubeApi } from './kube-api/index.js';
import { get } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { startAgent, until } from './support/processes.js';
import { freePort } from './support/ports.js';

interface PeerView { id: string; state: string; sources: string[] }

test('sidecar agents find their peers through etcd and skip the peers Service', { timeout: 150_000 }, async (t) => {
  const api = await startTestKubeApi(t);
  const etcd = await startEtcd(t);
  const pods = await Promise.all(['127.0.0.2', '127.0.0.3'].map(async (ip) => ({ ip, ops: await freePort(ip), ml: await freePort(ip) })));
  const agents = await Promise.all(pods.map((p, i) => startAgent(t, {
    ready: false,
    env: {
      KUBECONFIG: api.kubeconfig,
      POD_NAME: `web-${i}`,
      POD_NAMESPACE: 'shop',
      POD_IP: p.ip,
      SLUICE_AGENT_CLOUDEXT_INSTALLATION_MODE: 'KUBERNETES_SIDECAR',
      SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd),
      SLUICE_AGENT_SERVICE_DISCOVERY_KUBERNETES_ENABLED: 'false',
      SLUICE_AGENT_PEER_DISCOVERY_ADVERTISEMENT_ADDR: `${p.ip}:${p.ops}`,
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: `${p.ip}:${p.ops}`,
      SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: `${p.ip}:${p.ml}`,
    },
  })));
  for (const [i, a] of agents.entries()) {
    const other = pods[1 - i]!;
    const otherId = `${other.ip}:${other.ops}`;
    let last: PeerView[] = [];
    await until(async () => {
      const r = await get(`${a.base}/v1/peers`);
      const body = JSON.parse(r.text) as { peers?: PeerView[] } | PeerView[];
      last = Array.isArray(body) ? body : body.peers ?? [];
      return last.some((p) => p.id === otherId && p.state === 'alive');
    }, 60_000, `sidecar agent ${i} sees ${otherId}`).catch((e: unknown) => {
      throw new Error(`${(e as Error).message}: ${JSON.stringify(last)}`);
    });
    assert.ok(last.find((p) => p.id === otherId)?.sources.includes('etcd'), JSON.stringify(last));
    assert.ok(!last.some((p) => p.sources.includes('kubernetes')), 'no Kubernetes peer source');
    assert.match(a.output(), /Kubernetes peer discovery skipped: a sidecar agent/);
    assert.doesNotMatch(a.output(), /Kubernetes peer discovery started/);
  }
});
