import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The real executables, started from the repository root with a temporary config file and environment.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'sluice-config-cli-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// Loaded into the child with --import: reports any attempt to listen on a socket.
const SPY = join(dir, 'listen-spy.mjs');
writeFileSync(SPY, [
  "import net from 'node:net';",
  "import dgram from 'node:dgram';",
  "import { writeSync } from 'node:fs';",
  'const listen = net.Server.prototype.listen;',
  "net.Server.prototype.listen = function (...args) { writeSync(2, 'LISTEN-ATTEMPT\\n'); return listen.apply(this, args); };",
  'const bind = dgram.Socket.prototype.bind;',
  "dgram.Socket.prototype.bind = function (...args) { writeSync(2, 'LISTEN-ATTEMPT\\n'); return bind.apply(this, args); };",
  '',
].join('\n'));

type Service = 'agent' | 'controller';
const PREFIX: Record<Service, string> = { agent: 'SLUICE_AGENT_', controller: 'SLUICE_CONTROLLER_' };
/** What each process requires, so a case isolates the one problem it is about. */
const REQUIRED: Record<Service, Record<string, string>> = {
  agent: { SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]' },
  controller: { SLUICE_CONTROLLER_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]', SLUICE_CONTROLLER_PROMETHEUS_ADDRESS: 'http://127.0.0.1:9090' },
};

let fileCount = 0;
function configFile(text: string): string {
  const file = join(dir, `config-${fileCount++}.yaml`);
  writeFileSync(file, text);
  return file;
}

function start(service: Service, opts: { yaml?: string; env?: Record<string, string>; args?: string[]; required?: boolean }) {
  const args = [...(opts.args ?? []), '--config', configFile(opts.yaml ?? '')];
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_OPTIONS: `--import=${SPY}`,
    ...(opts.required === false ? {} : REQUIRED[service]),
    ...(opts.env ?? {}),
  };
  const r = spawnSync(join(ROOT, 'bin', `sluice-${service}`), args, { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(r.error, undefined, String(r.error));
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Case { name: string; service: Service; env?: Record<string, string>; yaml?: string; required?: boolean; path: string; envVar: string; message: RegExp }

const A = PREFIX.agent;
const C = PREFIX.controller;
const CASES: Case[] = [
  { name: 'address without a port', service: 'agent', env: { [`${A}SERVER_LISTENER_ADDR`]: 'abc' }, path: 'server.listener.addr', envVar: `${A}SERVER_LISTENER_ADDR`, message: /value "abc" is not hostname_port \(\[host\]:port/ },
  { name: 'port above 65535', service: 'controller', env: { [`${C}SERVER_LISTENER_ADDR`]: ':70000' }, path: 'server.listener.addr', envVar: `${C}SERVER_LISTENER_ADDR`, message: /":70000" is not hostname_port/ },
  { name: 'network outside the enum', service: 'agent', env: { [`${A}SERVER_LISTENER_NETWORK`]: 'udp' }, path: 'server.listener.network', envVar: `${A}SERVER_LISTENER_NETWORK`, message: /"udp" is not one of: tcp, tcp4, tcp6/ },
  { name: 'bad duration', service: 'agent', env: { [`${A}SERVER_HTTP_READ_TIMEOUT`]: 'soon' }, path: 'server.http.read_timeout', envVar: `${A}SERVER_HTTP_READ_TIMEOUT`, message: /"soon" is not duration/ },
  { name: 'negative timeout', service: 'controller', env: { [`${C}ETCD_LEASE_TTL`]: '-60s' }, path: 'etcd.lease_ttl', envVar: `${C}ETCD_LEASE_TTL`, message: /"-60s" is not duration \(a non-negative/ },
  { name: 'below a minimum', service: 'agent', env: { [`${A}SERVER_HTTP_MAX_HEADER_BYTES`]: '-1' }, path: 'server.http.max_header_bytes', envVar: `${A}SERVER_HTTP_MAX_HEADER_BYTES`, message: /value -1 is below the minimum 0/ },
  { name: 'above a maximum', service: 'agent', env: { [`${A}WATCHDOG_MEMORY_HEAP_MIN_GOGC`]: '101' }, path: 'watchdog.memory.heap.min_gogc', envVar: `${A}WATCHDOG_MEMORY_HEAP_MIN_GOGC`, message: /value 101 is above the maximum 100/ },
  { name: 'not a boolean', service: 'agent', env: { [`${A}FLOW_CONTROL_PREVIEW_SERVICE_ENABLED`]: 'yes' }, path: 'flow_control.preview_service.enabled', envVar: `${A}FLOW_CONTROL_PREVIEW_SERVICE_ENABLED`, message: /"yes" is not a boolean/ },
  { name: 'list that is not JSON', service: 'agent', env: { [`${A}ETCD_ENDPOINTS`]: 'http://a:2379,http://b:2379' }, path: 'etcd.endpoints', envVar: `${A}ETCD_ENDPOINTS`, message: /is not valid JSON: want a JSON list/ },
  { name: 'watermarks not increasing', service: 'controller', env: { [`${C}WATCHDOG_MEMORY_HEAP_WATERMARKS_POLICY_WATERMARKS`]: '[0.9,0.5]' }, path: 'watchdog.memory.heap.watermarks_policy.watermarks', envVar: `${C}WATCHDOG_MEMORY_HEAP_WATERMARKS_POLICY_WATERMARKS`, message: /is not strictly increasing/ },
  { name: 'log level outside the enum', service: 'controller', env: { [`${C}LOG_LEVEL`]: 'loud' }, path: 'log.level', envVar: `${C}LOG_LEVEL`, message: /"loud" is not one of: debug/ },
  { name: 'bound inside a list element', service: 'agent', env: { [`${A}LOG_WRITERS`]: '[{"file":"stderr","max_backups":-2}]' }, path: 'log.writers[0].max_backups', envVar: `${A}LOG_WRITERS`, message: /value -2 is below the minimum 0/ },
  { name: 'entity with a bad IP', service: 'agent', env: { [`${A}SERVICE_DISCOVERY_STATIC_ENTITIES`]: '[{"ip_address":"10.0.0.300","uid":"u"}]' }, path: 'service_discovery.static.entities[0].ip_address', envVar: `${A}SERVICE_DISCOVERY_STATIC_ENTITIES`, message: /"10\.0\.0\.300" is not ip/ },
  { name: 'misspelt variable', service: 'agent', env: { [`${A}FLOW_CONTROL_PREVIEW_SERVICE_ENABLE`]: 'true' }, path: '', envVar: `${A}FLOW_CONTROL_PREVIEW_SERVICE_ENABLE`, message: /did you mean SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED \(flow_control\.preview_service\.enabled\)\?/ },
  { name: 'agent without etcd', service: 'agent', required: false, path: 'etcd.endpoints', envVar: `${A}ETCD_ENDPOINTS`, message: /required by the agent, but not set/ },
  { name: 'controller without Prometheus', service: 'controller', required: false, env: { [`${C}ETCD_ENDPOINTS`]: '["127.0.0.1:2379"]' }, path: 'prometheus.address', envVar: `${C}PROMETHEUS_ADDRESS`, message: /required by the controller, but not set/ },
  { name: 'unknown key in the file', service: 'agent', yaml: 'server:\n  listener:\n    adress: ":80"\n', path: 'server.listener.adress', envVar: `${A}SERVER_LISTENER_ADRESS`, message: /unknown key \(value ":80"\); did you mean server\.listener\.addr\?; set in .*config-\d+\.yaml:3:5/ },
  { name: 'controller-only key in the agent file', service: 'agent', yaml: 'policies:\n  cr_watcher:\n    enabled: true\n', path: 'policies', envVar: `${A}POLICIES`, message: /unknown key/ },
  { name: 'wrong type in the file', service: 'controller', yaml: 'server:\n  grpc:\n    connection_timeout: 120\n', path: 'server.grpc.connection_timeout', envVar: `${C}SERVER_GRPC_CONNECTION_TIMEOUT`, message: /value 120 is not a duration string/ },
  { name: 'bad address in the file', service: 'agent', yaml: 'dist_cache:\n  bind_addr: "[::1]"\n', path: 'dist_cache.bind_addr', envVar: `${A}DIST_CACHE_BIND_ADDR`, message: /"\[::1\]" is not hostname_port/ },
  { name: 'bad enum in the file', service: 'controller', yaml: 'cloudext:\n  installation_mode: DOCKER\n', path: 'cloudext.installation_mode', envVar: `${C}CLOUDEXT_INSTALLATION_MODE`, message: /"DOCKER" is not one of/ },
  { name: 'TLS on without certificate', service: 'agent', yaml: 'server:\n  tls:\n    enabled: true\n    key_file: /k.pem\n', path: 'server.tls.cert_file', envVar: `${A}SERVER_TLS_CERT_FILE`, message: /must be set when server\.tls\.enabled is true/ },
  { name: 'malformed YAML', service: 'agent', yaml: 'log:\n  level: [info\n', path: '(file)', envVar: '', message: /malformed YAML at line \d+, column \d+/ },
];

for (const c of CASES) {
  test(`sluice-${c.service} exits 2 before listening: ${c.name}`, () => {
    const r = start(c.service, { env: c.env, yaml: c.yaml, required: c.required });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stdout, '');
    assert.ok(!r.stderr.includes('LISTEN-ATTEMPT'), 'tried to listen');
    assert.match(r.stderr, new RegExp(`^sluice-${c.service}: invalid configuration \\(\\d+ problems?\\); nothing was started:\\n`));
    const line = r.stderr.split('\n').find((l) => (c.path === '' ? l.includes(`: ${c.envVar}: `) : l.includes(`: ${c.path} `) || l.startsWith(`sluice-${c.service}: ${c.path}: `)));
    assert.ok(line !== undefined, r.stderr);
    if (c.envVar !== '') assert.ok(line.includes(c.envVar), line);
    assert.match(line, c.message);
  });
}

test('several problems at once are all reported, one line each', () => {
  const r = start('agent', { yaml: 'log:\n  level: loud\n', env: { [`${A}SERVER_LISTENER_ADDR`]: 'abc', [`${A}DIST_CACHE_REPLICA_COUNT`]: '0' } });
  assert.equal(r.code, 2);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 4, r.stderr);
  assert.match(r.stderr, /log\.level \(SLUICE_AGENT_LOG_LEVEL\)/);
  assert.match(r.stderr, /server\.listener\.addr \(SLUICE_AGENT_SERVER_LISTENER_ADDR\)/);
  assert.match(r.stderr, /dist_cache\.replica_count \(SLUICE_AGENT_DIST_CACHE_REPLICA_COUNT\)/);
});

test('an unknown flag exits 2; a missing --config file exits 2; --help exits 0', () => {
  const flag = start('controller', { args: ['--listen', ':80'] });
  assert.equal(flag.code, 2);
  assert.match(flag.stderr, /Unknown option '--listen'/);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...REQUIRED.agent };
  const missing = spawnSync(join(ROOT, 'bin', 'sluice-agent'), ['--config', join(dir, 'absent.yaml')], { cwd: ROOT, env, encoding: 'utf8', timeout: 30_000 });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /absent\.yaml: file not found/);
  const help = start('agent', { args: ['--help'] });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^Usage: sluice-agent/);
});

test('sluice-agent --print-config prints every default and exits 0 without listening', () => {
  const r = start('agent', { args: ['--print-config'], env: { [`${A}ETCD_PASSWORD`]: 's3cret' } });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stderr.includes('LISTEN-ATTEMPT'));
  const c = JSON.parse(r.stdout);
  assert.equal(c.server.listener.addr, ':8080');
  assert.equal(c.server.listener.keep_alive, '180s');
  assert.equal(c.server.http.max_header_bytes, 1048576);
  assert.equal(c.server.http.write_timeout, '45s');
  assert.deepEqual(c.server.grpc.latency_buckets_ms, [10, 25, 100, 250, 1000]);
  assert.equal(c.watchdog.memory.heap.min_gogc, 25);
  assert.equal(c.watchdog.memory.heap.limit, 268435456);
  assert.deepEqual(c.watchdog.memory.cgroup.watermarks_policy.watermarks, [0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99]);
  assert.equal(c.flow_control.preview_service.enabled, true);
  assert.equal(c.dist_cache.bind_addr, ':3320');
  assert.equal(c.dist_cache.memberlist_bind_addr, ':3322');
  assert.equal(c.prometheus.http_client.idle_connection_timeout, '90s');
  assert.equal(c.liveness.service.execution_period, '10s');
  assert.equal(c.otel.batch_prerollup.timeout, '10s');
  assert.equal(c.etcd.namespace, 'sluice');
  assert.equal(c.etcd.password, '****');
  assert.ok(!r.stdout.includes('s3cret'));
  assert.equal(c.crash_report.traces_sample_rate, 0.2);
  assert.equal(c.agent_info.agent_group, 'default');
});

test('sluice-controller --print-config shows the file and env values over the defaults', () => {
  const r = start('controller', {
    args: ['--print-config'],
    yaml: 'log:\n  level: debug\npolicies:\n  cr_watcher:\n    enabled: true\n',
    env: { [`${C}LOG_LEVEL`]: 'warn', [`${C}CLOUDEXT_API_KEY`]: 'abc', [`${C}CLOUDEXT_ENDPOINT`]: 'http://127.0.0.1:9' },
  });
  assert.equal(r.code, 0, r.stderr);
  const c = JSON.parse(r.stdout);
  assert.equal(c.log.level, 'warn');
  assert.equal(c.policies.cr_watcher.enabled, true);
  assert.equal(c.policies.promql_jobs_scheduler.worker_limit, 0);
  assert.equal(c.cloudext.api_key, '****');
  assert.equal(c.cloudext.enable_cloud_controller, false);
  assert.equal(c.prometheus.address, 'http://127.0.0.1:9090');
  assert.equal(c.server.listener.addr, ':8080');
});
