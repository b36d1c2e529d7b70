import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfigOrExit, type CliIo } from './cli.js';
import { oldEnvNames, oldEnvNotices } from './env.js';
import { PROCESSES } from './process.js';
import { resolveConfig } from './resolve.js';

// Settings that were variables of their own before they were keys: their old names are read until
// the next release, and the new name wins when both are set.

test('the old names are the variables the charts and manifests set', () => {
  const names = (p: 'agent' | 'controller') => oldEnvNames(PROCESSES[p]).map(({ key, old }) => `${old}=${key.path}`).sort();
  assert.deepEqual(names('agent'), ['SLUICE_PEERS_SERVICE=peer_discovery.kubernetes_service']);
  assert.deepEqual(names('controller'), [
    'SLUICE_INJECTOR_AGENT_ADDRESS=injector.agent_address', 'SLUICE_INJECTOR_AGENT_IMAGE=injector.agent_image',
    'SLUICE_INJECTOR_CONTROL_POINT=injector.control_point', 'SLUICE_INJECTOR_IMAGE_PULL_POLICY=injector.image_pull_policy',
    'SLUICE_INJECTOR_MODE=injector.mode', 'SLUICE_INJECTOR_SIDECAR_AGENT_ENV=injector.sidecar_agent_env',
    'SLUICE_INJECTOR_SIDECAR_AGENT_PORT=injector.sidecar_agent_port', 'SLUICE_INJECTOR_TAP_IMAGE=injector.tap_image',
    'SLUICE_INJECTOR_TAP_PORT=injector.tap_port',
  ]);
});

test('an old name sets its key, parsed by the key\'s type', () => {
  const c = resolveConfig({ process: 'controller', requireKeys: [], env: {
    SLUICE_INJECTOR_MODE: 'sidecar', SLUICE_INJECTOR_TAP_PORT: '9999', SLUICE_INJECTOR_TAP_IMAGE: 'r.example:5000/tap:1',
    SLUICE_INJECTOR_SIDECAR_AGENT_ENV: '{"SLUICE_AGENT_ETCD_ENDPOINTS":"[\\"http://etcd:2379\\"]"}',
  } });
  assert.equal(c.injector.mode, 'sidecar');
  assert.equal(c.injector.tap_port, 9999);
  assert.equal(c.injector.tap_image, 'r.example:5000/tap:1');
  assert.deepEqual(c.injector.sidecar_agent_env, { SLUICE_AGENT_ETCD_ENDPOINTS: '["http://etcd:2379"]' });
  const a = resolveConfig({ process: 'agent', requireKeys: [], env: { SLUICE_PEERS_SERVICE: 'agents-peers' } });
  assert.equal(a.peer_discovery.kubernetes_service, 'agents-peers');
});

test('the new name wins over the old one, and the notices say which was read', () => {
  const env = { SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '9000', SLUICE_INJECTOR_TAP_PORT: 'not read', SLUICE_INJECTOR_MODE: 'sidecar' };
  const c = resolveConfig({ process: 'controller', requireKeys: [], env });
  assert.equal(c.injector.tap_port, 9000);
  assert.equal(c.injector.mode, 'sidecar');
  assert.deepEqual(oldEnvNotices(PROCESSES.controller, env), [
    'SLUICE_INJECTOR_MODE is read as SLUICE_CONTROLLER_INJECTOR_MODE (injector.mode) until the next release: rename it',
    'SLUICE_INJECTOR_TAP_PORT is ignored: SLUICE_CONTROLLER_INJECTOR_TAP_PORT (injector.tap_port) is set; remove SLUICE_INJECTOR_TAP_PORT',
  ]);
  assert.deepEqual(oldEnvNotices(PROCESSES.controller, { SLUICE_CONTROLLER_INJECTOR_TAP_PORT: '9000' }), []);
});

test('the process tells the old names it read on stderr at start', () => {
  const out: string[] = [];
  const io: CliIo = { stdout: () => undefined, stderr: (t) => { out.push(t); }, exit: (code) => { throw new Error(`exit ${code}`); } };
  const start = (env: Record<string, string>) => loadConfigOrExit({ process: 'agent', argv: [], env, requireKeys: [], io, defaultConfigFile: '/nonexistent/agent.yaml' });
  assert.equal(start({}).config.peer_discovery.kubernetes_service, 'sluice-agent-peers');
  assert.deepEqual(out, []);
  assert.equal(start({ SLUICE_PEERS_SERVICE: 'agents-peers' }).config.peer_discovery.kubernetes_service, 'agents-peers');
  assert.deepEqual(out, ['sluice-agent: SLUICE_PEERS_SERVICE is read as SLUICE_AGENT_PEER_DISCOVERY_KUBERNETES_SERVICE (peer_discovery.kubernetes_service) until the next release: rename it\n']);
});
