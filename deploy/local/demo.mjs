#!/usr/bin/env node
// The local demo: real etcd and Prometheus, the controller, two agents of one
// agent group, each with a traffic tap in front of its own demo workload, and
// a load generator with three users (one of them heavy). With sluicectl, the
// operator's command line, it applies a rate-limit policy keyed on the `user`
// header through the controller, prints accepted and rejected requests per user
// before and after, a preview of the ingress control point narrowed by a label
// filter (through the controller, which the agents dial), and where to look.
//
// Interactive (a terminal, CI not set): runs until Ctrl-C. Otherwise it stops
// by itself after printing, exit 0, with everything it started stopped.
// SLUICE_DEMO_DIR names the working directory (default: a new temporary one);
// SLUICE_ETCD_BIN and SLUICE_PROMETHEUS_BIN override the binaries.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';

const root = new URL('../..', import.meta.url).pathname;
const here = new URL('.', import.meta.url).pathname;
const work = process.env.SLUICE_DEMO_DIR ?? mkdtempSync(join(tmpdir(), 'sluice-demo-'));
mkdirSync(work, { recursive: true });
const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY && !process.env.CI);
const etcdBin = process.env.SLUICE_ETCD_BIN ?? '/usr/bin/etcd';
const promBin = process.env.SLUICE_PROMETHEUS_BIN ?? '/usr/bin/prometheus';
const POLICY_FILE = 'deploy/examples/rate-limit.yaml';
const FLUX_FILE = 'deploy/local/flux-meter.yaml';
// The taps wait this long for the agent's answer before letting a request through (default 250ms):
// longer here, so that a busy laptop shows the policy's decisions rather than the taps failing open.
const CHECK_TIMEOUT = '2s';
/** Started processes, in start order; stopped in reverse. */
const children = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const began = Date.now();
function step(text) { console.log(`\n== ${text}  [${((Date.now() - began) / 1000).toFixed(1)} s]`); }

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** Distinct free loopback ports. */
async function freePorts(n) {
  const ports = new Set();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** Spawns a process with its output in `<work>/<name>.log`; `onLine` also sees its stdout lines. */
function start(name, cmd, args, { env = {}, onLine } = {}) {
  const log = join(work, `${name}.log`);
  const fd = openSync(log, 'a');
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', onLine ? 'pipe' : fd, fd] });
  if (onLine) {
    let pending = '';
    child.stdout.on('data', (d) => {
      writeFileSync(log, d, { flag: 'a' });
      pending += d.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) onLine(l);
    });
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.on('exit', (code, signal) => { if (!stopping) console.log(`${name} exited (${code ?? signal}); see ${log}`); });
  child.on('error', (err) => console.log(`${name}: ${err.message}`));
  children.push({ name, child, exited });
  return child;
}

async function waitFor(name, url, timeoutMs = 90_000, ok = (r) => r.ok) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      const passed = await ok(r);
      if (!r.bodyUsed) await r.arrayBuffer();
      if (passed) return;
    } catch { /* not up yet */ }
    await sleep(200);
  }
  throw new Error(`${name} did not become ready at ${url} within ${timeoutMs} ms (logs in ${work})`);
}

/** Runs bin/sluicectl against the demo's controller, printing the command and what it printed. */
let controllerUrl = '';
function sluicectl(args, { quiet = false } = {}) {
  console.log(`$ sluicectl ${args.map((a) => (/[\s"{}*]/.test(a) ? `'${a}'` : a)).join(' ')}`);
  return new Promise((resolve, reject) => {
    const child = spawn(join(root, 'bin/sluicectl'), args, { cwd: root, env: { ...process.env, SLUICE_CONTROLLER: controllerUrl }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (!quiet && out !== '') process.stdout.write(out.endsWith('\n') ? out : `${out}\n`);
      if (err !== '') process.stdout.write(err.endsWith('\n') ? err : `${err}\n`);
      resolve({ code: code ?? 1, out, err });
    });
  });
}

async function call(method, url, body) {
  const r = await fetch(url, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(40_000),
  });
  const text = await r.text();
  let json;
  try { json = JSON.parse(text); } catch { json = text; }
  return { status: r.status, body: json };
}

let stopping = false;
async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  // Reverse start order: traffic first, etcd last (the controller and agents revoke their leases).
  for (const { child, exited } of [...children].reverse()) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  for (const data of ['etcd-data', 'prometheus-data']) rmSync(join(work, data), { recursive: true, force: true });
  console.log(`everything the demo started is stopped; logs and configuration are kept in ${work}`);
  process.exit(code);
}
process.on('SIGINT', () => { console.log('\nstopping…'); void stopAll(0); });
process.on('SIGTERM', () => void stopAll(0));
// However the demo ends (even a broken pipe), it leaves no process behind.
process.on('exit', () => { for (const { child } of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
process.stdout.on('error', () => void stopAll(0));

/** The latest cumulative counts the load generator printed (user → status → n). */
let latestCounts = {};
const snapshot = () => JSON.parse(JSON.stringify(latestCounts));

/** Prints sent, accepted (2xx), rejected (429) and other answers per user between two snapshots. */
function printCounts(title, before, after, seconds) {
  console.log(`${title} (${seconds.toFixed(1)} s)`);
  console.log(`  ${'user'.padEnd(10)} ${'sent'.padStart(6)} ${'accepted'.padStart(9)} ${'rejected'.padStart(9)} ${'other'.padStart(6)}`);
  const rows = {};
  for (const user of Object.keys(after)) {
    const diff = (key) => (after[user]?.[key] ?? 0) - (before[user]?.[key] ?? 0);
    const keys = Object.keys(after[user]);
    const sent = keys.reduce((n, k) => n + diff(k), 0);
    const accepted = keys.filter((k) => /^2\d\d$/.test(k)).reduce((n, k) => n + diff(k), 0);
    const rejected = diff('429');
    rows[user] = { sent, accepted, rejected };
    console.log(`  ${user.padEnd(10)} ${String(sent).padStart(6)} ${String(accepted).padStart(9)} ${String(rejected).padStart(9)} ${String(sent - accepted - rejected).padStart(6)}`);
  }
  return rows;
}

/** Counts over `ms` of traffic from now. */
async function measure(title, ms) {
  const before = snapshot();
  const t0 = Date.now();
  await sleep(ms);
  await sleep(1100); // the load generator's next report includes the window's last answers
  return printCounts(title, before, snapshot(), (Date.now() - t0 - 1100) / 1000);
}

function policySpec(file) {
  const doc = parseYaml(readFileSync(join(root, file), 'utf8'));
  return { name: doc.metadata.name, spec: doc.spec };
}

try {
  for (const [what, bin] of [['etcd', etcdBin], ['prometheus', promBin]]) {
    if (!existsSync(bin)) throw new Error(`${what} is not installed at ${bin}: run \`make setup\` (as root it installs the Debian package), or set SLUICE_${what.toUpperCase()}_BIN`);
  }
  const [etcdPort, etcdPeer, promPort, controllerPort, agentA, agentB, appA, appB, tapA, tapB, adminA, adminB, dcA, dcB, mlA, mlB] = await freePorts(16);
  const agents = [
    { name: 'agent-a', port: agentA, app: appA, tap: tapA, admin: adminA, dc: dcA, ml: mlA },
    { name: 'agent-b', port: agentB, app: appB, tap: tapB, admin: adminB, dc: dcB, ml: mlB },
  ];
  step(`working directory ${work} (every process's log is kept there)`);

  step('starting etcd and Prometheus');
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  start('etcd', etcdBin, [
    '--name', 'sluice-demo', '--data-dir', join(work, 'etcd-data'),
    '--listen-client-urls', etcdUrl, '--advertise-client-urls', etcdUrl,
    '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`,
    '--initial-cluster', `sluice-demo=http://127.0.0.1:${etcdPeer}`, '--log-level', 'warn', '--logger', 'zap',
  ]);
  const scrapeTargets = [controllerPort, agentA, agentB].map((p) => `127.0.0.1:${p}`);
  writeFileSync(join(work, 'prometheus.yml'), [
    'global:', '  scrape_interval: 1s', '  evaluation_interval: 1s', 'scrape_configs:',
    '  - job_name: sluice', '    scrape_interval: 1s', '    scrape_timeout: 900ms', '    static_configs:',
    `      - targets: ${JSON.stringify(scrapeTargets)}`, '',
  ].join('\n'));
  const promUrl = `http://127.0.0.1:${promPort}`;
  start('prometheus', promBin, [
    `--config.file=${join(work, 'prometheus.yml')}`, `--storage.tsdb.path=${join(work, 'prometheus-data')}`,
    `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn', '--storage.tsdb.retention.time=1h',
  ]);
  await waitFor('etcd', `${etcdUrl}/health`, 60_000, async (r) => (await r.json()).health === 'true');
  await waitFor('prometheus', `${promUrl}/-/ready`);
  console.log(`etcd        ${etcdUrl}  (data in ${join(work, 'etcd-data')})`);
  console.log(`prometheus  ${promUrl}  (scrapes ${scrapeTargets.join(', ')} every 1 s)`);

  const common = { log: { level: 'info' }, etcd: { endpoints: [etcdUrl] } };
  for (const a of agents) {
    writeFileSync(join(work, `${a.name}.yaml`), JSON.stringify({
      ...common,
      server: { listener: { addr: `127.0.0.1:${a.port}` } },
      agent_info: { agent_group: 'default' },
      dist_cache: { bind_addr: `127.0.0.1:${a.dc}`, memberlist_bind_addr: `127.0.0.1:${a.ml}` },
      service_discovery: { static: { entities: [{ ip_address: '127.0.0.1', uid: 'demo-app-0', name: 'demo-app-0', namespace: 'demo', services: ['demo-app.demo.svc.cluster.local'] }] } },
      // Agent functions: the agents dial the controller, which reaches them for sluicectl's previews.
      agent_functions: { endpoints: [`127.0.0.1:${controllerPort}`], client: { grpc: { insecure: true, backoff: { base_delay: '200ms', max_delay: '2s' } } } },
    }, null, 2));
  }
  writeFileSync(join(work, 'controller.yaml'), JSON.stringify({
    ...common,
    server: { listener: { addr: `127.0.0.1:${controllerPort}` } },
    prometheus: { address: promUrl },
  }, null, 2));

  step('effective configuration (--print-config; the full trees are saved beside the logs)');
  const printConfig = (name, bin) => new Promise((resolve, reject) => {
    const child = spawn(join(root, bin), ['--config', join(work, `${name}.yaml`), '--print-config'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} --print-config failed: ${err}`))));
  });
  const configs = await Promise.all([['agent-a', 'bin/sluice-agent'], ['controller', 'bin/sluice-controller']].map(async ([name, bin]) => [name, await printConfig(name, bin)]));
  for (const [name, text] of configs) {
    writeFileSync(join(work, `${name}.effective.json`), text);
    const c = JSON.parse(text);
    const summary = name === 'controller'
      ? `listener ${c.server.listener.addr}, etcd ${c.etcd.endpoints.join(',')} (namespace ${c.etcd.namespace}), prometheus ${c.prometheus.address}, cr_watcher ${c.policies.cr_watcher.enabled}`
      : `listener ${c.server.listener.addr}, agent_group ${c.agent_info.agent_group}, etcd ${c.etcd.endpoints.join(',')}, preview ${c.flow_control.preview_service.enabled}`;
    console.log(`${name.padEnd(10)}  ${summary}  (${join(work, `${name}.effective.json`)})`);
  }

  step('starting the controller, two agents (group "default"), two demo workloads and a tap in front of each');
  start('controller', join(root, 'bin/sluice-controller'), ['--config', join(work, 'controller.yaml')]);
  for (const a of agents) {
    start(a.name, join(root, 'bin/sluice-agent'), ['--config', join(work, `${a.name}.yaml`)]);
    start(`demo-app-${a.name.slice(-1)}`, process.execPath, [join(here, 'demo-app.mjs'), String(a.app)]);
    start(`tap-${a.name.slice(-1)}`, join(root, 'bin/sluice-tap'), ['--listen', `127.0.0.1:${a.tap}`, '--upstream', `http://127.0.0.1:${a.app}`,
      '--agent', `127.0.0.1:${a.port}`, '--control-point', 'ingress', '--admin', `127.0.0.1:${a.admin}`, '--check-timeout', CHECK_TIMEOUT]);
  }
  const controller = `http://127.0.0.1:${controllerPort}`;
  controllerUrl = controller;
  await waitFor('controller', `${controller}/v1/status/system/readiness`);
  for (const a of agents) {
    await waitFor(a.name, `http://127.0.0.1:${a.port}/v1/status/system/readiness`);
    await waitFor(`demo-app-${a.name.slice(-1)}`, `http://127.0.0.1:${a.app}/healthz`);
    await waitFor(`tap-${a.name.slice(-1)}`, `http://127.0.0.1:${a.admin}/healthz`);
  }
  for (const a of agents) await waitFor(`${a.name} synced with etcd`, `http://127.0.0.1:${a.port}/v1/policies/enforced`, 30_000, async (r) => (await r.json()).synced === true);
  await waitFor('both agents connected to the controller', `${controller}/v1/agents`, 30_000, async (r) => (await r.json()).agents?.length === 2);
  console.log(`controller  ${controller}  (gRPC + HTTP: the policy API)`);
  for (const a of agents) {
    const x = a.name.slice(-1);
    console.log(`${a.name.padEnd(10)}  http://127.0.0.1:${a.port}  (gRPC + HTTP)   tap-${x} http://127.0.0.1:${a.tap} -> demo-app-${x} http://127.0.0.1:${a.app}`);
  }
  console.log(`(the taps: --check-timeout ${CHECK_TIMEOUT}; metrics at http://127.0.0.1:${adminA}/metrics and http://127.0.0.1:${adminB}/metrics)`);

  step('traffic through both taps, 36 requests/s: alice (gold) and bob (silver) 3/s each, crawler-7 (free) 30/s');
  start('load', process.execPath, [join(here, 'load.mjs'), agents.map((a) => `http://127.0.0.1:${a.tap}`).join(','), '36', '0', '1000'], {
    onLine: (line) => { if (line.startsWith('counts ')) { try { latestCounts = JSON.parse(line.slice(7).replace(/ skipped \d+$/, '')); } catch { /* partial line */ } } },
  });
  // Measured once every user's requests are being answered (start-up can be slow on a busy machine).
  const flowing = Date.now() + 60_000;
  while (!(Object.keys(latestCounts).length === 3 && Object.values(latestCounts).every((c) => Object.keys(c).some((k) => /^2\d\d$/.test(k))))) {
    if (Date.now() > flowing) throw new Error(`traffic is not answered after 60 s (see ${join(work, 'load.log')} and the taps' logs)`);
    await sleep(200);
  }
  await measure('before any policy: requests per user, both taps', 5000);

  const flux = policySpec(FLUX_FILE);
  const limit = policySpec(POLICY_FILE);
  step('applying two policies through the controller with sluicectl (the policy API: POST /v1/policies/{name})');
  const fluxReply = await sluicectl(['apply', 'policy', '-f', FLUX_FILE]);
  if (fluxReply.code !== 0) throw new Error(`sluicectl apply policy -f ${FLUX_FILE} failed: ${fluxReply.err}`);
  console.log(`(${flux.name}: a flux meter timing every ingress flow)`);
  const limiter = limit.spec.circuit.components[0].flow_control.rate_limiter;
  console.log(`${limit.name} (${POLICY_FILE}): ${limiter.in_ports.fill_amount.constant_signal.value} requests per ${limiter.parameters.interval} `
    + `per value of ${limiter.parameters.label_key}, bursts of ${limiter.in_ports.bucket_capacity.constant_signal.value}, on control point ingress`);
  await sluicectl(['compile', '-f', POLICY_FILE, '--svg', join(work, `${limit.name}.svg`)]);
  const applied = Date.now();
  const limitReply = await sluicectl(['apply', 'policy', '-f', POLICY_FILE]);
  if (limitReply.code !== 0) throw new Error(`sluicectl apply policy -f ${POLICY_FILE} failed: ${limitReply.err}`);
  for (const a of agents) {
    await waitFor(`${a.name} enforcing ${limit.name}`, `http://127.0.0.1:${a.port}/v1/policies/enforced`, 15_000,
      async (r) => (await r.json()).components.some((c) => c.policy_name === limit.name));
  }
  console.log(`both agents list ${limit.name} in GET /v1/policies/enforced ${Date.now() - applied} ms after sluicectl applied it`);
  console.log('(a kubectl user applies the same file instead: see "with kubectl" below)');

  await sleep(500);
  const after = await measure('with the policy: requests per user, both taps (the agents share each user\'s bucket through the distributed counter cache: 10/s per user after a burst of 20)', 8000);
  const limited = Object.entries(after).filter(([, r]) => r.rejected > 0).map(([u]) => u);
  console.log(limited.length > 0 ? `rejected with 429: ${limited.join(', ')}` : 'no user was rejected (see the agents\' logs)');

  const agentBase = `http://127.0.0.1:${agentA}`;
  step('the agents, through the controller (they dial it: agent_functions.endpoints)');
  await sluicectl(['agents']);
  await sluicectl(['flow-control', 'control-points', '--agent-group', 'default']);

  step('preview of the ingress control point on the agents of group default, narrowed to crawler-7\'s POSTs');
  const preview = await sluicectl(['-o', 'json', 'flow-control', 'preview', 'ingress', '--samples', '1', '--match', 'http.request.header.user=crawler-7', '--match', 'http.method=POST']);
  if (preview.code !== 0) throw new Error(`the preview failed: ${preview.err}`);

  step('flow labels of gold users (what label_key and label_matcher can use)');
  await sluicectl(['flow-control', 'preview', 'ingress', '--labels', '--samples', '1', '--match', 'http.request.header.user_tier=gold']);

  step('a bad policy is refused with the path of the field at fault, and nothing else changes');
  const bad = structuredClone(limit.spec);
  bad.circuit.components[0].flow_control.rate_limiter.in_ports.bucket_capacity.constant_signal.value = -1;
  const badFile = join(work, 'broken.json');
  writeFileSync(badFile, JSON.stringify({ policy: bad }, null, 2));
  const refused = await sluicectl(['apply', 'policy', '-f', badFile, '--name', 'broken']);
  console.log(`exit status ${refused.code}`);

  step('where to look');
  await sluicectl(['policies']);
  await sluicectl(['decisions', 'rate_limiter']);
  console.log(`GET ${agentBase}/v1/policies/enforced`);
  const enforced = await call('GET', `${agentBase}/v1/policies/enforced`);
  console.log(`  agent_group ${enforced.body.agent_group}, etcd ${enforced.body.etcd_state}, synced ${enforced.body.synced}: `
    + (enforced.body.components ?? []).map((c) => `${c.policy_name}/${c.component_id}`).join(', '));
  console.log(`GET ${agentBase}/v1/peers (the agents of the group, found through etcd, sharing counters)`);
  const peers = await call('GET', `${agentBase}/v1/peers`);
  if (peers.status === 200) {
    console.log(`  self ${peers.body.self?.id}; peers: ${(peers.body.peers ?? []).map((p) => `${p.id} (${p.state}${p.in_ring ? ', in the ring' : ''})`).join(', ') || 'none yet'}`);
  } else console.log(`  status ${peers.status}`);
  const stats = await call('GET', `${agentBase}/v1/distcache/stats`);
  if (stats.status === 200) {
    console.log(`GET ${agentBase}/v1/distcache/stats`);
    console.log(`  members ${stats.body.members?.length}, keys owned ${stats.body.keys_owned}, operations ${JSON.stringify(stats.body.operations)}, `
      + `fallbacks ${JSON.stringify(stats.body.fallbacks)} (a bucket owner that does not answer in time: the flow is admitted and counted)`);
  }
  console.log(`GET ${agentBase}/metrics (the flux meter's histogram, flux_meter_count lines):`);
  const metrics = await (await fetch(`${agentBase}/metrics`)).text();
  for (const line of metrics.split('\n').filter((l) => l.startsWith('flux_meter_count')).slice(0, 4)) console.log(`  ${line}`);
  const query = 'sum by (flow_status, decision_type) (rate(flux_meter_count{flux_meter_name="demo-ingress"}[10s]))';
  console.log(`Prometheus ${promUrl}/graph, e.g. ${query}:`);
  let series = [];
  const end = Date.now() + 15_000;
  while (series.length === 0 && Date.now() < end) {
    const r = await call('GET', `${promUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
    series = r.body?.data?.result ?? [];
    if (series.length === 0) await sleep(1000);
  }
  for (const s of series) console.log(`  ${JSON.stringify(s.metric)} ${Number(s.value[1]).toFixed(1)}/s`);
  if (series.length === 0) console.log('  (no samples yet)');

  step('with kubectl instead of the API');
  console.log([
    'make kube-api                      # a test Kubernetes API server; prints its kubeconfig',
    'export KUBECONFIG=.kube-api/kubeconfig',
    'kubectl apply -f crds/ && kubectl apply -f deploy/examples/rate-limit.yaml',
    'bin/sluicectl --kube apply policy -f deploy/examples/rate-limit.yaml   # the same, with sluicectl',
    'SLUICE_CONTROLLER_POLICIES_CR_WATCHER_ENABLED=true bin/sluice-controller --config <work>/controller.yaml',
    'kubectl get policies               # status uploaded, or failed with the field at fault',
    'Guides: docs/guides/policies.md, docs/guides/sluicectl.md; the language: docs/policies.md',
  ].map((l) => `  ${l}`).join('\n'));

  if (interactive) {
    step('running; the load generator writes its counts every second to load.log. Ctrl-C stops everything.');
    await new Promise(() => {});
  } else {
    step('done (not interactive): stopping everything');
    await stopAll(0);
  }
} catch (err) {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  await stopAll(1);
}
