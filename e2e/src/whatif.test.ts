// What-if with real processes: etcd, a controller, an agent dialling it (agent functions), a tap in
// front of a workload and traffic from three users at steady rates. `sluicectl what-if` of the demo's
// rate-limit policy (deploy/examples/rate-limit.yaml) predicts per user what the policy would reject,
// from live samples replayed in the controller's sandbox; the policy is then applied, the same traffic
// driven again, and each user's actual rejected fraction agrees with the prediction within 5 points.
// Bad requests: a bad policy is 400 with its JSON path, a group without agents 404, too few samples
// an answer with what was collected, saying so.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { nullableToTypes } from './support/openapi.js';
import { startWorkload } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { ROOT, startAgent, startController, startTap, tempDir, until } from './support/processes.js';

/** Requests a second per user, for 15 s: alice under the policy's 10/s, carol and bob over it (capacity 20). */
const USERS = { alice: 5, carol: 14, bob: 20 } as const;
const SECONDS = 15;
const TOTAL = Object.values(USERS).reduce((a, b) => a + b, 0) * SECONDS;

type Label = { value: string; flows: number; rejected: number; rejected_fraction: number; rejected_by: Record<string, number> };
interface Answer { label_key: string; samples: { requested: number; collected: number; complete: boolean }; by_label: Label[]; notes: string[]; preview: string }

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Each user's requests on a fixed schedule (request i at start + i/rate), all at once, for `seconds`
 * or until `stop` says so; answers per user what was sent and rejected (429). `prefix` names the users.
 */
async function drive(base: string, prefix = '', seconds = SECONDS, stop?: () => boolean): Promise<Record<string, { sent: number; rejected: number; other: number }>> {
  const start = Date.now() + 100;
  const out: Record<string, { sent: number; rejected: number; other: number }> = {};
  await Promise.all(Object.entries(USERS).map(async ([name, rate]) => {
    const user = `${prefix}${name}`;
    const r = (out[name] = { sent: 0, rejected: 0, other: 0 });
    const calls: Promise<void>[] = [];
    for (let i = 0; i < rate * seconds && stop?.() !== true; i++) {
      const wait = start + (i * 1000) / rate - Date.now();
      if (wait > 0) await sleep(wait);
      calls.push(fetch(`${base}/orders`, { headers: { user } }).then(async (res) => {
        await res.arrayBuffer();
        r.sent++;
        if (res.status === 429) r.rejected++;
        else if (res.status !== 200) r.other++;
      }));
    }
    await Promise.all(calls);
  }));
  return out;
}

test('what-if predicts the demo rate limit per user; applied, the actual rejections agree within 5%', { timeout: 600_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { ready: 'live', env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  const agent = await startAgent(t, {
    ready: 'live',
    env: {
      SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd),
      SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: JSON.stringify([controller.address]),
      SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE: 'true',
    },
  });
  await until(async () => ((await (await fetch(`${controller.base}/v1/agents`)).json()) as { agents: unknown[] }).agents.length === 1, 60_000, 'agent connected');
  const workload = await startWorkload(t);
  const tap = await startTap(t, workload.url, agent.address, 'ingress');
  assert.equal((await fetch(`${tap.base}/warm`, { headers: { user: 'warm' } })).status, 200);

  const file = join(ROOT, 'deploy/examples/rate-limit.yaml');
  const svgFile = join(tempDir(t), 'what-if.svg');
  const ctl = (args: string[]): Promise<{ code: number; out: string; err: string }> => new Promise((resolve) => {
    execFile(join(ROOT, 'bin', 'sluicectl'), ['--controller', controller.base, ...args], { timeout: 120_000 }, (err, out, errText) => {
      resolve({ code: err === null ? 0 : Number((err as { code?: number }).code ?? -1), out, err: errText });
    });
  });

  // 1. What-if while the traffic runs, nothing applied.
  // The same traffic from other users runs until the agent's preview starts (warming the path, so
  // that the measured traffic keeps its schedule), then the measured traffic, all of it sampled: the
  // preview asks for more samples than are sent and answers at the end of its wait.
  const whatIf = ctl(['-o', 'json', 'what-if', '-f', file, '--control-point', 'ingress', '--samples', '1000', '--wait', '30s', '--svg', svgFile]);
  let previewing = false;
  const warming = drive(tap.base, 'warm-', 120, () => previewing);
  await until(async () => (previewing = /^flow_preview_active 1$/m.test(await (await fetch(`${agent.base}/metrics`)).text())), 60_000, 'the preview runs');
  await warming;
  const before = await drive(tap.base);
  for (const [user, r] of Object.entries(before)) assert.equal(r.rejected + r.other, 0, `${user}: nothing enforced yet`);
  const res = await whatIf;
  assert.equal(res.code, 0, res.err);
  const answer = JSON.parse(res.out) as Answer;
  t.diagnostic(`what-if: ${answer.samples.collected} samples; ${answer.by_label.map((g) => `${g.value} ${g.rejected}/${g.flows}`).join(', ')}`);
  assert.equal(answer.label_key, 'http.request.header.user');
  assert.equal(answer.preview, 'labels');
  assert.ok(answer.samples.collected >= TOTAL, `collected ${answer.samples.collected}, ${TOTAL} sent`);
  assert.equal(answer.samples.complete, false);
  assert.match(answer.notes.join('\n'), /collected \d+ of 1000 samples within 30000 ms/);
  const predicted = new Map(answer.by_label.map((g) => [g.value, g]));
  const alice = predicted.get('alice');
  const bob = predicted.get('bob');
  const carol = predicted.get('carol');
  assert.ok(alice !== undefined && bob !== undefined && carol !== undefined, JSON.stringify(answer.by_label.map((g) => g.value)));
  assert.equal(alice.rejected, 0, 'alice stays under 10/s: never limited');
  assert.ok(bob.rejected_fraction > 0.25, `bob would be limited: ${bob.rejected_fraction}`);
  assert.ok(carol.rejected > 0 && carol.rejected_fraction < bob.rejected_fraction, `carol less than bob: ${carol.rejected_fraction}`);
  assert.deepEqual(Object.keys(bob.rejected_by), ['REJECT_REASON_RATE_LIMITED by rate_limiter root.0']);
  const svg = readFileSync(svgFile, 'utf8');
  assert.match(svg, /data-value="bob"/);
  assert.match(svg, /data-value="alice"/);
  const enforced = await (await fetch(`${agent.base}/v1/policies/enforced`)).json() as { components: unknown[] };
  assert.equal(enforced.components.length, 0, 'what-if published nothing');

  // 2. The policy applied; the same traffic again once the limiter decides.
  const { metadata, spec } = parse(readFileSync(file, 'utf8')) as { metadata: { name: string }; spec: unknown };
  const applied = await fetch(`${controller.base}/v1/policies/${metadata.name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ policy: spec }) });
  assert.equal(applied.status, 200, await applied.text());
  await until(async () => {
    let limited = false;
    for (let i = 0; i < 30 && !limited; i++) limited = (await fetch(`${tap.base}/probe`, { headers: { user: 'probe' } })).status === 429;
    return limited;
  }, 60_000, 'the rate limiter limits');
  await drive(tap.base, 'warm-', 3); // as before the first run; the warm-up users have buckets of their own
  const after = await drive(tap.base);
  const figures: string[] = [];
  for (const user of Object.keys(USERS)) {
    const r = after[user];
    const p = predicted.get(user);
    assert.ok(r !== undefined && p !== undefined);
    assert.equal(r.other, 0, `${user}: only 200 or 429`);
    const actual = r.rejected / r.sent;
    figures.push(`${user}: predicted ${(p.rejected_fraction * 100).toFixed(1)}% actual ${(actual * 100).toFixed(1)}%`);
    assert.ok(Math.abs(actual - p.rejected_fraction) <= 0.05, `${user}: predicted ${p.rejected_fraction}, actual ${actual} (${r.rejected}/${r.sent})`);
  }
  t.diagnostic(`RESULT whatif ${figures.join('; ')}`);
});

test('what-if refuses a bad policy with its JSON path, a group without agents with 404, and answers partial samples saying so', { timeout: 300_000 }, async (t) => {
  const etcd = await startEtcd(t);
  const controller = await startController(t, { ready: 'live', env: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: '127.0.0.1:9' } });
  await startAgent(t, {
    ready: 'live',
    env: { SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcd), SLUICE_AGENT_AGENT_FUNCTIONS_ENDPOINTS: JSON.stringify([controller.address]), SLUICE_AGENT_AGENT_FUNCTIONS_CLIENT_GRPC_INSECURE: 'true' },
  });
  await until(async () => ((await (await fetch(`${controller.base}/v1/agents`)).json()) as { agents: unknown[] }).agents.length === 1, 60_000, 'agent connected');
  const limiter = (capacity: number, group = 'default') => ({
    circuit: { components: [{ flow_control: { rate_limiter: {
      in_ports: { bucket_capacity: { constant_signal: { value: capacity } }, fill_amount: { constant_signal: { value: 1 } } },
      parameters: { label_key: 'user', interval: '1s' }, selectors: [{ control_point: 'quiet', agent_group: group }],
    } } }] },
  });
  const ask = async (body: unknown) => {
    const r = await fetch(`${controller.base}/v1/whatif`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() as Record<string, unknown> };
  };
  const notJson = await fetch(`${controller.base}/v1/whatif`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"policy":' });
  assert.equal(notJson.status, 400);
  assert.equal(((await notJson.json()) as { code: number }).code, 3, 'the gateway error body, INVALID_ARGUMENT');
  const bad = await ask({ policy: limiter(-1), control_point: 'quiet' });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /bucket_capacity/, 'the JSON path of the field at fault');
  const noCp = await ask({ policy: limiter(5), control_point: 'elsewhere' });
  assert.equal(noCp.status, 400);
  assert.match(String(noCp.body.message), /selects no flows at control point "elsewhere"/);
  const badSamples = await ask({ policy: limiter(5), control_point: 'quiet', samples: 0 });
  assert.equal(badSamples.status, 400);
  assert.match(JSON.stringify(badSamples.body), /"field":"samples"/);
  const noAgent = await ask({ policy: limiter(5, 'canary'), control_point: 'quiet' });
  assert.equal(noAgent.status, 404);
  assert.match(String(noAgent.body.message), /no agent of group canary/);
  const partial = await ask({ policy: { kind: 'Policy', metadata: { name: 'quiet-limit' }, spec: limiter(5) }, control_point: 'quiet', samples: 10, wait_ms: 500 });
  assert.equal(partial.status, 200, JSON.stringify(partial.body));
  assert.equal(partial.body.policy, 'quiet-limit');
  assert.deepEqual(partial.body.samples && (partial.body.samples as { collected: number; complete: boolean }).complete, false);
  assert.match(JSON.stringify(partial.body.notes), /collected 0 of 10 samples within 500 ms/);
  // The answer as docs/api/controller-openapi.yaml documents it.
  const doc = nullableToTypes(parse(readFileSync(join(ROOT, 'docs/api/controller-openapi.yaml'), 'utf8')) as never) as unknown as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'controller');
  const validate = ajv.compile({ $ref: 'controller#/paths/~1v1~1whatif/post/responses/200/content/application~1json/schema' });
  assert.ok(validate(partial.body), ajv.errorsText(validate.errors));
});
