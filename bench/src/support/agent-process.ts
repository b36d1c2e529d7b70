/**
 * The real sluice-agent (apps/agent/dist/main.js, what bin/sluice-agent execs) as a server
 * under test: loopback listener on a free port, static discovery giving the loopback peer
 * the bench service, and the bench's local rate limiter. Logs stay at `info`, which writes
 * nothing per request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import { ROOT } from './bench-paths.js';
import { BENCH_LIMITERS_YAML, BENCH_SERVICES } from './check-fixture.js';

/** `extraEnv` adds to (or overrides) the bench agent's environment. */
export async function startAgent(extraEnv: NodeJS.ProcessEnv = {}): Promise<ChildServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-bench-'));
  const limiters = path.join(dir, 'limiters.yaml');
  writeFileSync(limiters, BENCH_LIMITERS_YAML);
  const removeDir = (): void => rmSync(dir, { recursive: true, force: true });
  // Also when the bench is interrupted (child-server's exit hook ends the agent itself).
  process.once('exit', removeDir);
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]',
    SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    // The dist cache's defaults (:3320, :3322) would collide with another agent on this host.
    SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
    SLUICE_AGENT_SERVICE_DISCOVERY_STATIC_ENTITIES: JSON.stringify([{ ip_address: '127.0.0.1', uid: 'bench', services: BENCH_SERVICES }]),
    ...extraEnv,
  };
  try {
    const agent = await startChildServer({
      name: 'sluice-agent',
      command: process.execPath,
      args: [path.join(ROOT, 'apps', 'agent', 'dist', 'main.js'), '--local-limiters', limiters],
      env,
      portPattern: /"msg":"server listening".*?"port":(\d+)/,
    });
    return { ...agent, stop: async (graceMs?: number) => { await agent.stop(graceMs); removeDir(); } };
  } catch (err) {
    removeDir();
    throw err;
  }
}
