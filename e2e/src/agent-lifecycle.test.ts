// The lifecycle of the real agent and controller processes: readiness, metrics,
// gRPC health, graceful SIGTERM with a preview in flight, start-up failures.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkHttpRequest, get, grpcClient, grpcHealth, post, unaryCall } from './support/clients.js';
import { holdPort, processEnv, ROOT, spawnProc, startAgent, startController, tempDir, writeFile } from './support/processes.js';

test('agent and controller become ready, serve metrics and gRPC health', { timeout: 90_000 }, async (t) => {
  const t0 = Date.now();
  const [agent, controller] = await Promise.all([startAgent(t), startController(t)]);
  // How long start-up took is a figure, not an assertion (it depends on the machine's load).
  t.diagnostic(`both ready in ${Date.now() - t0} ms`);
  for (const p of [agent, controller]) {
    const ready = await get(`${p.base}/v1/status/system/readiness`);
    assert.equal(ready.status, 200);
    assert.equal((JSON.parse(ready.text) as { status: string }).status, 'healthy');
    assert.equal(await grpcHealth(t, p.address), 'SERVING');
    assert.equal(await grpcHealth(t, p.address, 'readiness'), 'SERVING');
    const metrics = await get(`${p.base}/metrics`);
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /^http_requests_total\{.*\} \d+/m, 'HTTP requests so far are counted');
    assert.doesNotMatch(metrics.text, /^process_resident_memory_bytes/m, 'process collector off by default');
    assert.doesNotMatch(metrics.text, /^grpcserver_handled_total/m, 'high-cardinality families off by default');
  }
  assert.match(agent.output(), /"service":"agent"/);
  assert.match(controller.output(), /"service":"controller"/);
});

test('grpcserver_* families only with enable_high_cardinality_platform_metrics; process metrics with enable_process_collector', { timeout: 30_000 }, async (t) => {
  const [on, off] = await Promise.all([
    startAgent(t, { env: { SLUICE_AGENT_OTEL_ENABLE_HIGH_CARDINALITY_PLATFORM_METRICS: 'true', SLUICE_AGENT_METRICS_ENABLE_PROCESS_COLLECTOR: 'true' } }),
    startAgent(t, { config: 'otel:\n  enable_high_cardinality_platform_metrics: false\n' }),
  ]);
  for (const p of [on, off]) {
    const client = grpcClient(t, 'flowControlHttp', p.address);
    await unaryCall(client, 'CheckHTTP', checkHttpRequest('ingress', '/m'));
  }
  const withHigh = (await get(`${on.base}/metrics`)).text;
  assert.match(withHigh, /^grpcserver_handled_total\{.*grpc_method="CheckHTTP".*\} 1$/m);
  assert.match(withHigh, /^http_requests_total/m);
  assert.match(withHigh, /^process_resident_memory_bytes \d+/m);
  const without = (await get(`${off.base}/metrics`)).text;
  assert.doesNotMatch(without, /grpcserver_/);
  assert.match(without, /^http_requests_total/m);
});

test('SIGTERM lets an in-flight preview finish, then the agent exits 0', { timeout: 30_000 }, async (t) => {
  // write_timeout 3s: a preview waits at most 2 s.
  const agent = await startAgent(t, { env: { SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '3s' } });
  const checkHttp = grpcClient(t, 'flowControlHttp', agent.address);
  const started = Date.now();
  const pending = post(`${agent.base}/v1/flowcontrol/preview/http_requests/ingress?samples=1000`, '{}');
  await new Promise((r) => setTimeout(r, 300));
  await unaryCall(checkHttp, 'CheckHTTP', checkHttpRequest('ingress', '/before-sigterm'));
  agent.child.kill('SIGTERM');
  const reply = await pending;
  assert.equal(reply.status, 200, reply.text);
  const paths = (JSON.parse(reply.text) as { samples: { attributes: { request: { http: { path: string } } } }[] }).samples.map((s) => s.attributes.request.http.path);
  assert.ok(paths.includes('/before-sigterm'), JSON.stringify(paths));
  assert.ok(Date.now() - started >= 1800, 'it ran its wait out');
  const exit = await agent.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, agent.output());
  assert.match(agent.output(), /"msg":"stopping","meta":\{"signal":"SIGTERM"/);
  await assert.rejects(fetch(`${agent.base}/healthz`), 'nothing listens any more');
});

test('controller exits 0 on SIGINT', { timeout: 30_000 }, async (t) => {
  const controller = await startController(t);
  controller.child.kill('SIGINT');
  assert.deepEqual(await controller.exited, { code: 0, signal: null }, controller.output());
});

test('a port already in use: the process exits 1 naming the address', { timeout: 30_000 }, async (t) => {
  const { port } = await holdPort(t);
  for (const service of ['agent', 'controller'] as const) {
    const prefix = service === 'agent' ? 'SLUICE_AGENT_' : 'SLUICE_CONTROLLER_';
    const proc = spawnProc(t, join(ROOT, 'bin', `sluice-${service}`), [], processEnv(service, { [`${prefix}SERVER_LISTENER_ADDR`]: `127.0.0.1:${port}` }));
    const exit = await proc.exited;
    assert.equal(exit.code, 1, proc.output());
    assert.match(proc.output(), new RegExp(`start-up failed.*cannot listen on tcp 127\\.0\\.0\\.1:${port}: EADDRINUSE`));
  }
});

test('--local-limiters with a bad file: the agent exits 2 naming the file and the problem paths', { timeout: 30_000 }, async (t) => {
  const dir = tempDir(t);
  const run = (file: string) => spawnSync(join(ROOT, 'bin', 'sluice-agent'), ['--local-limiters', file], { cwd: ROOT, env: processEnv('agent'), encoding: 'utf8', timeout: 20_000 });
  const missing = run(join(dir, 'absent.yaml'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /^sluice-agent: --local-limiters \S*absent\.yaml: ENOENT$/m);
  const bad = run(writeFile(dir, 'limiters.yaml', '- control_point: ingress\n  bucket_capacity: -1\n  fill_amount: 1\n  interval: soon\n- { name: x, control_point: cp, bucket_capacity: 1, fill_amount: 1, interval: 1s, colour: red }\n'));
  assert.equal(bad.status, 2);
  const line = bad.stderr.split('\n').find((l) => l.startsWith('sluice-agent: ')) ?? '';
  assert.match(line, /^sluice-agent: --local-limiters \S*limiters\.yaml: /);
  assert.match(line, /\[0\]\.bucket_capacity: must be >= 0, got -1/);
  assert.match(line, /\[0\]\.interval: must be a duration such as "1s" or "1m30s", got "soon"/);
  assert.match(line, /\[1\]\.colour: unknown key/);
  const yaml = run(writeFile(dir, 'broken.yaml', 'a: [\n'));
  assert.equal(yaml.status, 2);
  assert.match(yaml.stderr, /--local-limiters \S*broken\.yaml: .*not valid YAML/);
  for (const r of [missing, bad, yaml]) assert.doesNotMatch(r.stderr, /serving gRPC and HTTP/, 'nothing was served');
});

test('sluice-agent --print-config prints the whole tree', () => {
  const r = spawnSync(join(ROOT, 'bin', 'sluice-agent'), ['--print-config'], {
    cwd: ROOT, env: processEnv('agent', { SLUICE_AGENT_SERVER_HTTP_WRITE_TIMEOUT: '3s' }), encoding: 'utf8', timeout: 20_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const c = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
  for (const key of ['agent_info', 'client', 'dist_cache', 'etcd', 'flow_control', 'liveness', 'log', 'metrics', 'otel', 'profilers',
    'prometheus', 'readiness', 'server', 'service_discovery', 'watchdog']) {
    assert.ok(key in c, `top-level key ${key}`);
  }
  const server = c.server as { listener: { addr: string }; http: { write_timeout: string; max_header_bytes: number }; grpc: { connection_timeout: string } };
  assert.equal(server.listener.addr, '127.0.0.1:0', 'env over defaults');
  assert.equal(server.http.write_timeout, '3s');
  assert.equal(server.http.max_header_bytes, 1048576);
  assert.equal(server.grpc.connection_timeout, '120s');
  assert.deepEqual((c.etcd as { endpoints: string[] }).endpoints, ['http://127.0.0.1:2379']);
  assert.equal((c.flow_control as { preview_service: { enabled: boolean } }).preview_service.enabled, true);
  assert.equal((c.otel as { enable_high_cardinality_platform_metrics: boolean }).enable_high_cardinality_platform_metrics, false);
  assert.equal((c.profilers as { register_http_routes: boolean }).register_http_routes, true);
  assert.equal(r.stderr, '');
});
