// A real etcd for end-to-end tests (the helper of libs/etcd): free loopback
// ports, a temporary data directory, stop/kill/start on the same ports and data.
import type { TestContext } from 'node:test';
import { startEtcdServer, type EtcdServer } from '@sluice/etcd/testing';

export { startEtcdServer, type EtcdServer } from '@sluice/etcd/testing';

/** Starts etcd; it is stopped and its data removed in t.after. */
export async function startEtcd(t: TestContext): Promise<EtcdServer> {
  const server = await startEtcdServer();
  t.after(() => server.close());
  return server;
}

/** The agent or controller env variable value naming `server` as the only endpoint. */
export function endpointsJson(server: EtcdServer): string {
  return JSON.stringify([server.endpoint]);
}
