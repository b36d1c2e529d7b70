// crash_report end to end: a real agent and controller crash on purpose (SLUICE_DEBUG_CRASH, a
// test-only trigger) and a local receiver of Sentry's envelope protocol gets the report, with the
// configured environment and no secret of the configuration in it; disabled, nothing is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHttpHeartbeatReceiver } from './support/heartbeat-receiver.js';
import { startSentryReceiver } from './support/sentry-receiver.js';
import { startAgent, startController } from './support/processes.js';

const API_KEY = 'cloud-key-77aa1c3e5b';
const DIST_KEY = 'dist-cache-key-0123456789abcdef';

test('an agent crash is reported to crash_report.dsn with its environment, scrubbed of secrets, then the agent exits 70', { timeout: 300_000 }, async (t) => {
  const sentry = await startSentryReceiver(t);
  const cloud = await startHttpHeartbeatReceiver(t);
  const agent = await startAgent(t, {
    env: {
      SLUICE_AGENT_CRASH_REPORT_DSN: sentry.dsn('public0key', '42'),
      SLUICE_AGENT_CRASH_REPORT_ENVIRONMENT: 'e2e-staging',
      SLUICE_AGENT_CRASH_REPORT_DEBUG: 'false',
      SLUICE_AGENT_CLOUDEXT_API_KEY: API_KEY,
      SLUICE_AGENT_CLOUDEXT_ENDPOINT: cloud.endpoint,
      SLUICE_AGENT_DIST_CACHE_AUTH_KEYS: DIST_KEY,
      // The error thrown carries the secrets, as a careless message could.
      SLUICE_DEBUG_CRASH: `test crash: api key ${API_KEY}, dist key ${DIST_KEY}`,
    },
    ready: false,
    startMs: 150_000,
  });
  const { envelope, event } = await sentry.waitForEvent(90_000);
  const exit = await agent.exited;
  assert.equal(exit.code, 70, agent.output());

  assert.equal(envelope.project, '42');
  assert.match(`${envelope.url} ${String(envelope.requestHeaders['x-sentry-auth'])}`, /sentry_key=public0key/);
  assert.equal(event.environment, 'e2e-staging');
  assert.equal(event.level, 'fatal');
  assert.equal(event.server_name, 'sluice-agent');
  const exception = (event.exception as { values: Array<{ type: string; value: string; stacktrace?: { frames: unknown[] } }> }).values.at(-1);
  assert.equal(exception?.type, 'Error');
  assert.equal(exception?.value, 'test crash: api key ****, dist key ****');
  assert.ok((exception?.stacktrace?.frames.length ?? 0) > 0, 'with its stack trace');
  for (const secret of [API_KEY, DIST_KEY]) {
    assert.ok(!envelope.raw.includes(secret), `no ${secret} in the report`);
  }
  assert.match(agent.output(), /uncaught exception: exiting/);
});

test('a controller crash is reported with the default environment; crash_report.disabled sends nothing', { timeout: 300_000 }, async (t) => {
  const sentry = await startSentryReceiver(t);
  // Its own etcd namespace: a controller removes the keys of policies it does not hold.
  const crash = { SLUICE_DEBUG_CRASH: 'controller test crash', SLUICE_CONTROLLER_ETCD_NAMESPACE: `crash-e2e-${process.pid}` };
  const [on, off] = await Promise.all([
    startController(t, { env: { SLUICE_CONTROLLER_CRASH_REPORT_DSN: sentry.dsn('pk1', '7'), SLUICE_CONTROLLER_CRASH_REPORT_DEBUG: 'false', ...crash }, ready: false, startMs: 150_000 }),
    startController(t, { env: { SLUICE_CONTROLLER_CRASH_REPORT_DSN: sentry.dsn('pk2', '8'), SLUICE_CONTROLLER_CRASH_REPORT_DISABLED: 'true', ...crash }, ready: false, startMs: 150_000 }),
  ]);
  const { envelope, event } = await sentry.waitForEvent(90_000);
  assert.equal((await on.exited).code, 70, on.output());
  assert.equal((await off.exited).code, 70, off.output());
  assert.equal(envelope.project, '7');
  assert.equal(event.environment, 'production');
  assert.equal(event.server_name, 'sluice-controller');
  // The disabled one has exited (after its crash guards ran): nothing came from it.
  await new Promise((r) => setTimeout(r, 500));
  // Project 7 may also have the start-up span (traces_sample_rate); project 8 nothing at all.
  assert.deepEqual([...new Set(sentry.envelopes.map((e) => e.project))], ['7']);
});
