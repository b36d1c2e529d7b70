// The container images built from Containerfile by scripts/images.sh (as `make images` does) on a
// local base image (no registry is reached: scripts/image-test-base.sh), then each image's
// entrypoint run inside it: the agent and the controller reach readiness against a real etcd (and
// Prometheus), the tap enforces the agent's decision on requests to a loopback workload; each stops
// with exit status 0 on SIGTERM, ran as the image's non-root user and wrote nothing outside /tmp.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { Etcd3 } from 'etcd3';
import { parse } from 'yaml';
import { CHARTS, at, read, values } from './support/chart-checks.js';
import { startWorkload } from './support/clients.js';
import { endpointsJson, startEtcd } from './support/etcd.js';
import { inspectImage, runImage, runOk, uidOf, writtenOutsideTmp, type InImage } from './support/images.js';
import { ROOT, until, waitReady } from './support/processes.js';
import { startPrometheus } from './support/prometheus.js';

const APPS = ['agent', 'controller', 'tap'] as const;
type App = typeof APPS[number];
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
/** The lockfile's packages that only devDependencies need (some devDependencies, such as @types/node, are also needed by dependencies). */
const DEV_ONLY = Object.entries((JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> }).packages)
  .filter(([p, v]) => p.startsWith('node_modules/') && v.dev === true).map(([p]) => p);
const REGISTRY = 'localhost/sluice-e2e';
const ref = (app: App): string => `${REGISTRY}/sluice/${app}:${pkg.version}`;
/** What `buildah run` itself places in a container to run a command in it. */
const RUN_PLUMBING = new Set(['etc/hosts', 'etc/resolv.conf', 'etc/hostname', 'run/', 'run/.containerenv']);
const CP = 'images-e2e';

test('images: the default references are the charts\' default images (tags from the appVersion, which is the package version)', async () => {
  const names = (await runOk('bash', ['scripts/images.sh', 'names'])).out.trim().split('\n');
  assert.deepEqual(names, APPS.map((a) => `sluice/${a}:${pkg.version}`));
  const [agentChart, controllerChart] = CHARTS;
  const appVersion = (dir: string): string => String((parse(read('charts', dir, 'Chart.yaml')) as { appVersion: unknown }).appVersion);
  const image = (v: unknown, dir: string): string => {
    const { repository, tag } = v as { repository: string; tag: string };
    return `${repository}:${tag === '' ? appVersion(dir) : tag}`;
  };
  for (const c of CHARTS) assert.equal(appVersion(c.dir), pkg.version, `${c.dir} appVersion`);
  assert.equal(image(at(values(agentChart), 'image'), agentChart.dir), names[0]);
  assert.equal(image(at(values(agentChart), 'sidecar.tap.image'), agentChart.dir), names[2]);
  assert.equal(image(at(values(controllerChart), 'image'), controllerChart.dir), names[1]);
  // The injected images: the controller chart's injector.agentImage / injector.tapImage (config.injector.* left out).
  assert.equal(image(at(values(controllerChart), 'injector.agentImage'), controllerChart.dir), names[0]);
  assert.equal(image(at(values(controllerChart), 'injector.tapImage'), controllerChart.dir), names[2]);
  const VERSION = /^ARG VERSION=(.*)$/m.exec(read('Containerfile'))?.[1];
  assert.equal(VERSION, pkg.version, 'the Containerfile\'s default version label');
});

async function publishLimiter(etcd: Etcd3, capacity: number): Promise<void> {
  const policy = 'images-e2e';
  await etcd.put(`sluice/decisions/default/${policy}/root.0`).value(JSON.stringify({ kind: 'rate_limiter', bucket_capacity: capacity, fill_amount: 0, pass_through: false }));
  await etcd.put(`sluice/config/default/${policy}/root.0`).value(JSON.stringify({
    kind: 'rate_limiter', policy_name: policy, policy_hash: 'h1', component_id: 'root.0', agent_group: 'default',
    selectors: [{ control_point: CP, agent_group: 'default' }],
    parameters: { label_key: 'http.request.header.x_user', interval_ms: 3_600_000, continuous_fill: false, max_idle_time_ms: 7_200_000, lazy_sync: { enabled: false, num_sync: 4 } },
  }));
}

/** The port of the "serving gRPC and HTTP" line. */
async function servingPort(p: InImage): Promise<number> {
  const line = await p.waitForLine(/serving gRPC and HTTP/, 120_000);
  const address = (JSON.parse(line) as { meta: { address: string } }).meta.address;
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

/** SIGTERM to the app's Node process (the entrypoint script execs it): buildah run ends with its status. */
async function stops(t: TestContext, app: App, p: InImage): Promise<void> {
  process.kill(p.nodePid(), 'SIGTERM');
  const exit = await p.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, `${app} exits 0 on SIGTERM:\n${p.output().slice(-4000)}`);
  assert.deepEqual(await writtenOutsideTmp(p.container, RUN_PLUMBING), [], `${app} wrote nothing outside /tmp`);
  t.diagnostic(`${app}: exit 0 on SIGTERM, nothing written outside /tmp`);
}

test('images: built from the repository on a local base, each entrypoint runs in its image', { timeout: 20 * 60_000 }, async (t) => {
  const base = await runOk('bash', ['scripts/image-test-base.sh'], { timeoutMs: 8 * 60_000 });
  const baseRef = base.out.trim().split('\n').pop() ?? '';
  t.diagnostic(`test base ${baseRef} (${(await inspectImage(baseRef)).size}) ready in ${Math.round(base.ms / 1000)} s`);
  const built = await runOk('bash', ['scripts/images.sh'], { env: { BASE_IMAGE: baseRef, IMAGE_REGISTRY: REGISTRY, CONTAINER_TOOL: 'buildah' }, timeoutMs: 12 * 60_000 });
  t.diagnostic(`scripts/images.sh built ${APPS.map(ref).join(', ')} in ${Math.round(built.ms / 1000)} s`);

  for (const app of APPS) {
    const info = await inspectImage(ref(app));
    t.diagnostic(`${ref(app)}: ${info.size}`);
    assert.match(info.user, /^\d+(:\d+)?$/, `${app}: a numeric user (runAsNonRoot checks it)`);
    assert.notEqual(Number(info.user.split(':')[0]), 0, `${app}: not root`);
    assert.deepEqual(info.entrypoint, [`/app/bin/sluice-${app}`]);
    assert.ok(info.env.some((e) => /^PATH=\/app\/bin:/.test(e)), `${app}: sluice-${app} on PATH (the charts' command)`);
    assert.equal(info.labels['org.opencontainers.image.version'], pkg.version);
    assert.equal(info.labels['org.opencontainers.image.licenses'], 'Apache-2.0');
    assert.equal(info.labels['org.opencontainers.image.title'], `sluice-${app}`);
    assert.ok('org.opencontainers.image.source' in info.labels);
  }

  // The production trees: no package only devDependencies need, no test, no TypeScript source in any image.
  await t.test('production trees', async (tt) => {
    for (const app of APPS) {
      const container = (await runOk('buildah', ['from', '--pull=never', '--name', `sluice-e2e-tree-${app}-${process.pid}`, ref(app)])).out.trim().split('\n').pop() ?? '';
      tt.after(() => runOk('buildah', ['rm', container]).then(() => undefined));
      const mnt = (await runOk('buildah', ['mount', container])).out.trim();
      try {
        assert.ok(DEV_ONLY.includes('node_modules/typescript'));
        assert.deepEqual(DEV_ONLY.filter((p) => existsSync(join(mnt, 'app', p))), [], `${app}: no package only devDependencies need`);
        const files = (await runOk('find', [join(mnt, 'app'), '-path', '*/node_modules', '-prune', '-o', '-type', 'f', '-print'])).out.trim().split('\n');
        assert.ok(files.some((f) => f.endsWith(`/app/apps/${app}/dist/main.js`)), `${app}: its compiled main`);
        assert.deepEqual(files.filter((f) => /\.test\.js$|\.ts$/.test(f)), [], `${app}: no tests, sources or declarations`);
        const du = (await runOk('du', ['-sh', join(mnt, 'app')])).out.split('\t')[0];
        tt.diagnostic(`${app}: /app (production tree) ${du}`);
      } finally {
        await runOk('buildah', ['umount', container]);
      }
    }
  });

  const etcdServer = await startEtcd(t);
  const etcd = new Etcd3({ hosts: [etcdServer.endpoint] });
  t.after(() => etcd.close());
  const prometheus = await startPrometheus(t, []);
  const tag = `${process.pid}-${Date.now()}`;

  // The agent and the controller start side by side (each waits on its own start-up).
  const startAgentImage = async (): Promise<[InImage, number]> => {
    const p = await runImage(t, ref('agent'), `sluice-e2e-agent-${tag}`, [], {
      SLUICE_AGENT_ETCD_ENDPOINTS: endpointsJson(etcdServer), SLUICE_AGENT_SERVER_LISTENER_ADDR: '127.0.0.1:0',
      SLUICE_AGENT_DIST_CACHE_BIND_ADDR: '127.0.0.1:0', SLUICE_AGENT_DIST_CACHE_MEMBERLIST_BIND_ADDR: '127.0.0.1:0',
    });
    const port = await servingPort(p);
    await waitReady(`http://127.0.0.1:${port}`, 60_000);
    assert.equal(uidOf(p.nodePid()), 65532, 'the agent runs as the image\'s user');
    t.diagnostic('agent ready in its image');
    return [p, port];
  };
  const startControllerImage = async (): Promise<InImage> => {
    const p = await runImage(t, ref('controller'), `sluice-e2e-controller-${tag}`, [], {
      SLUICE_CONTROLLER_ETCD_ENDPOINTS: endpointsJson(etcdServer), SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: prometheus.url,
      // Its own etcd namespace: the controller owns <namespace>/config and /decisions and removes keys no
      // policy of its own holds, such as the limiter this test writes for the agent below.
      SLUICE_CONTROLLER_ETCD_NAMESPACE: 'sluice-images-controller',
      SLUICE_CONTROLLER_SERVER_LISTENER_ADDR: '127.0.0.1:0',
    });
    await waitReady(`http://127.0.0.1:${await servingPort(p)}`, 60_000);
    assert.equal(uidOf(p.nodePid()), 65532, 'the controller runs as the image\'s user');
    t.diagnostic('controller ready in its image');
    return p;
  };
  const [[agent, agentPort], controller] = await Promise.all([startAgentImage(), startControllerImage()]);

  // The tap in front of a loopback workload, asking the agent, which enforces a limiter of one request.
  await publishLimiter(etcd, 1);
  await until(async () => {
    const r = await fetch(`http://127.0.0.1:${agentPort}/v1/policies/enforced`);
    return ((await r.json()) as { components: unknown[] }).components.length === 1;
  }, 20_000, 'the limiter enforced');
  const workload = await startWorkload(t);
  const tap = await runImage(t, ref('tap'), `sluice-e2e-tap-${tag}`,
    ['--listen', '127.0.0.1:0', '--admin', '127.0.0.1:0', '--upstream', workload.url, '--agent', `127.0.0.1:${agentPort}`, '--control-point', CP,
      // A busy machine: the check may wait for the agent's connection rather than fail open.
      '--check-timeout', '5s'], {});
  const started = JSON.parse(await tap.waitForLine(/"tap started"/, 120_000)) as { meta: { listen: { port: number } } };
  const send = async (): Promise<number> => {
    const r = await fetch(`http://127.0.0.1:${started.meta.listen.port}/orders`, { headers: { 'x-user': 'alice' } });
    await r.arrayBuffer();
    return r.status;
  };
  assert.deepEqual([await send(), await send()], [200, 429], 'the first request goes through, the second is over the limit');
  assert.deepEqual(workload.seen.map((s) => s.url), ['/orders'], 'only the accepted request reaches the workload');
  assert.equal(uidOf(tap.nodePid()), 65532);
  t.diagnostic('tap: one request through to the workload, the next turned away by the agent');

  await stops(t, 'tap', tap);
  await stops(t, 'controller', controller);
  await stops(t, 'agent', agent);
});
