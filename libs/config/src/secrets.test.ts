import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PROCESSES } from './process.js';
import { resolveConfig } from './resolve.js';
import { secretValues } from './secrets.js';

test('secretValues gives every set secret of the tree, comma-separated keys one by one, longest first', () => {
  const config = resolveConfig({
    process: 'agent', requireKeys: [],
    env: {
      SLUICE_AGENT_ETCD_PASSWORD: 'etcd-pass-1',
      SLUICE_AGENT_CLOUDEXT_API_KEY: 'api-key-2',
      SLUICE_AGENT_CLOUDEXT_ENDPOINT: 'http://127.0.0.1:9',
      SLUICE_AGENT_CRASH_REPORT_DSN: 'http://pk@127.0.0.1:9/1',
      SLUICE_AGENT_DIST_CACHE_AUTH_KEYS: 'first-key-0123456789,second-key-0123456789',
      SLUICE_AGENT_LOG_LEVEL: 'debug',
    },
  });
  const secrets = secretValues(PROCESSES.agent.schema, config);
  assert.deepEqual(new Set(secrets), new Set([
    'etcd-pass-1', 'api-key-2', 'http://pk@127.0.0.1:9/1',
    'first-key-0123456789,second-key-0123456789', 'first-key-0123456789', 'second-key-0123456789',
  ]));
  for (let i = 1; i < secrets.length; i++) assert.ok(secrets[i - 1].length >= secrets[i].length);
  assert.ok(!secrets.includes('debug'), 'only secrets');
});

test('secretValues of a tree with no secret set is empty', () => {
  assert.deepEqual(secretValues(PROCESSES.controller.schema, resolveConfig({ process: 'controller', requireKeys: [], env: {} })), []);
});
