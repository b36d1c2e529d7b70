#!/usr/bin/env node
// The local demo: a controller, an agent (static service discovery, local rate
// limiters), a demo workload, the traffic tap in front of it, and a load
// generator with a few kinds of users. It then runs previews with label
// filters and prints the samples. Interactive: runs until Ctrl-C. With CI set
// or without a terminal: stops by itself after printing.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, openSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'sluice-demo-'));
const interactive = process.stdout.isTTY && process.stdin.isTTY && !process.env.CI;
const children = [];

function step(text) { console.log(`\n== ${text}`); }

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

function start(name, cmd, args, env = {}) {
  const log = join(work, `${name}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  child.on('exit', (code, signal) => { if (!stopping) console.log(`${name} exited (${code ?? signal}); see ${log}`); });
  children.push({ name, child });
  return child;
}

async function waitFor(name, url, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not become ready at ${url} within ${timeoutMs} ms (logs in ${work})`);
}

async function post(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  for (const { child } of children.reverse()) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 1500));
  for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  console.log(`logs and effective configuration are kept in ${work}`);
  process.exit(code);
}
process.on('SIGINT', () => { console.log('\nstopping…'); void stopAll(0); });
// However the demo ends (even a broken pipe), it leaves no process behind.
process.on('exit', () => { for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
process.stdout.on('error', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

try {
  const [agentPort, controllerPort, appPort, tapPort, tapAdmin] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  step(`working directory ${work} (process logs are kept there)`);
  // etcd and Prometheus are named because the key trees require them; policies
  // through etcd are not part of this demo yet.
  const common = { log: { level: 'info' } };
  writeFileSync(join(work, 'agent.yaml'), JSON.stringify({
    ...common,
    server: { listener: { addr: `127.0.0.1:${agentPort}` } },
    etcd: { endpoints: ['http://127.0.0.1:2379'] },
    service_discovery: { static: { entities: [{ ip_address: '127.0.0.1', uid: 'demo-app-0', name: 'demo-app-0', namespace: 'demo', services: ['demo-app.demo.svc.cluster.local'] }] } },
  }, null, 2));
  writeFileSync(join(work, 'controller.yaml'), JSON.stringify({
    ...common,
    server: { listener: { addr: `127.0.0.1:${controllerPort}` } },
    etcd: { endpoints: ['http://127.0.0.1:2379'] },
    prometheus: { address: 'http://127.0.0.1:9090' },
  }, null, 2));

  step('effective configuration (sluice-agent --print-config; the full trees are saved beside the logs)');
  for (const [name, bin] of [['agent', 'bin/sluice-agent'], ['controller', 'bin/sluice-controller']]) {
    const r = spawnSync(join(root, bin), ['--config', join(work, `${name}.yaml`), '--print-config'], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${bin} --print-config failed: ${r.stderr}`);
    writeFileSync(join(work, `${name}.effective.json`), r.stdout);
    const c = JSON.parse(r.stdout);
    const summary = name === 'agent'
      ? `listener ${c.server.listener.addr}, agent_group ${c.agent_info.agent_group}, preview enabled ${c.flow_control.preview_service.enabled}, `
        + `${c.service_discovery.static.entities.length} static entity, http write_timeout ${c.server.http.write_timeout}, log ${c.log.level}`
      : `listener ${c.server.listener.addr}, cr_watcher enabled ${c.policies.cr_watcher.enabled}, prometheus ${c.prometheus.address}, log ${c.log.level}`;
    console.log(`${name.padEnd(10)}  ${summary}  (${Object.keys(c).length} top-level keys: ${join(work, `${name}.effective.json`)})`);
  }

  step('starting the controller, the agent, the demo workload and the tap');
  start('controller', join(root, 'bin/sluice-controller'), ['--config', join(work, 'controller.yaml')]);
  start('agent', join(root, 'bin/sluice-agent'), ['--config', join(work, 'agent.yaml'), '--local-limiters', join(here, 'limiters.yaml')]);
  start('demo-app', process.execPath, [join(here, 'demo-app.mjs'), String(appPort)]);
  start('tap', join(root, 'bin/sluice-tap'), ['--listen', `127.0.0.1:${tapPort}`, '--upstream', `http://127.0.0.1:${appPort}`, '--agent', `127.0.0.1:${agentPort}`, '--control-point', 'ingress', '--admin', `127.0.0.1:${tapAdmin}`]);
  await waitFor('controller', `http://127.0.0.1:${controllerPort}/v1/status/system/readiness`);
  await waitFor('agent', `http://127.0.0.1:${agentPort}/v1/status/system/readiness`);
  await waitFor('demo-app', `http://127.0.0.1:${appPort}/healthz`);
  await waitFor('tap', `http://127.0.0.1:${tapAdmin}/healthz`);
  console.log(`controller  http://127.0.0.1:${controllerPort}  (gRPC + HTTP)`);
  console.log(`agent       http://127.0.0.1:${agentPort}  (gRPC + HTTP)`);
  console.log(`demo-app    http://127.0.0.1:${appPort}`);
  console.log(`tap         http://127.0.0.1:${tapPort} -> demo-app  (metrics at http://127.0.0.1:${tapAdmin}/metrics)`);

  step('sending traffic through the tap: alice (gold), bob (silver), two crawlers (free, 5 req/s each)');
  start('load', process.execPath, [join(here, 'load.mjs'), `http://127.0.0.1:${tapPort}`, '40']);
  await new Promise((r) => setTimeout(r, 1500));

  const base = `http://127.0.0.1:${agentPort}/v1/flowcontrol`;
  step(`control points the agent has seen: GET ${base}/controlpoints`);
  console.log(JSON.stringify(await (await fetch(`${base}/controlpoints`)).json(), null, 2));

  step(`preview of 2 HTTP requests of gold users: POST ${base}/preview/http_requests/ingress?samples=2`);
  const filter = { match_labels: { 'http.request.header.user_tier': 'gold' } };
  console.log(`filter: ${JSON.stringify(filter)}`);
  const http = await post(`${base}/preview/http_requests/ingress?samples=2`, filter);
  console.log(`status ${http.status}`);
  console.log(JSON.stringify(http.body, null, 2));

  step(`preview of the flow labels of crawler POSTs: POST ${base}/preview/labels/ingress?samples=1`);
  const labelsFilter = { expression: { all: { of: [{ label_matches: { label: 'http.request.header.user_agent', regex: '^crawler/' } }, { label_equals: { label: 'http.method', value: 'POST' } }] } } };
  console.log(`filter: ${JSON.stringify(labelsFilter)}`);
  const labels = await post(`${base}/preview/labels/ingress?samples=1`, labelsFilter);
  console.log(`status ${labels.status}`);
  console.log(JSON.stringify(labels.body, null, 2));

  step('a bad filter is refused with the path of the field at fault');
  const bad = await post(`${base}/preview/http_requests/ingress`, { match_expressions: [{ key: 'user', operator: 'Within' }] });
  console.log(`status ${bad.status}: ${JSON.stringify(bad.body)}`);

  await new Promise((r) => setTimeout(r, 4000));
  step('decisions so far (from the tap\'s metrics)');
  const metrics = await (await fetch(`http://127.0.0.1:${tapAdmin}/metrics`)).text();
  for (const line of metrics.split('\n')) if (line.startsWith('tap_requests_total')) console.log(line);

  if (interactive) {
    step('running; the load generator prints a summary every 5 s to its log. Ctrl-C stops everything.');
    await new Promise(() => {});
  } else {
    step('done (not interactive): stopping everything');
    await stopAll(0);
  }
} catch (err) {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll(1);
}
