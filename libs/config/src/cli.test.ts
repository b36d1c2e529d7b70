import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigOrExit, type CliIo } from './cli.js';
import { loadConfig } from './load.js';
import { ConfigError } from './problem.js';
import { parseCliArgs } from './args.js';

class Exit extends Error {
  constructor(readonly code: number) { super(`exit ${code}`); }
}

function capture(): CliIo & { out: string; err: string } {
  const io = {
    out: '',
    err: '',
    stdout(text: string) { io.out += text; },
    stderr(text: string) { io.err += text; },
    exit(code: number): never { throw new Exit(code); },
  };
  return io;
}

function run(opts: Parameters<typeof loadConfigOrExit>[0]): { code: number | undefined; out: string; err: string } {
  const io = capture();
  try {
    loadConfigOrExit({ ...opts, io });
    return { code: undefined, out: io.out, err: io.err };
  } catch (e) {
    if (e instanceof Exit) return { code: e.code, out: io.out, err: io.err };
    throw e;
  }
}

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-config-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const ETCD = { SLUICE_AGENT_ETCD_ENDPOINTS: '["http://127.0.0.1:2379"]' };
const NOWHERE = '/nonexistent/sluice/agent.yaml';

test('command-line parsing: --config, --print-config, --help; unknown flags and positionals are problems', () => {
  assert.deepEqual(parseCliArgs(['--config', '/a.yaml', '--print-config']).args, { configFile: '/a.yaml', printConfig: true, help: false });
  assert.equal(parseCliArgs(['-c', '/b.yaml']).args.configFile, '/b.yaml');
  assert.equal(parseCliArgs(['--config=/x']).args.configFile, '/x');
  assert.match(parseCliArgs(['--verbose']).problems[0].message, /Unknown option '--verbose'/);
  assert.equal(parseCliArgs(['extra']).problems[0].rule, 'cli');
  assert.match(parseCliArgs(['--config']).problems[0].message, /--config/);
  assert.match(parseCliArgs(['--config', '']).problems[0].message, /needs a file path/);
});

test('a good configuration is returned without printing anything', () => {
  const r = run({ process: 'agent', argv: [], env: ETCD, defaultConfigFile: NOWHERE });
  assert.equal(r.code, undefined);
  assert.equal(r.out + r.err, '');
});

test('problems: a header and one line per problem on stderr, exit 2', () => {
  const r = run({ process: 'agent', argv: [], env: { SLUICE_AGENT_SERVER_LISTENER_ADDR: 'abc', SLUICE_AGENT_LOG_LEVEL: 'loud' }, defaultConfigFile: NOWHERE });
  assert.equal(r.code, 2);
  assert.equal(r.out, '');
  const lines = r.err.trimEnd().split('\n');
  assert.match(lines[0], /^sluice-agent: invalid configuration \(3 problems\); nothing was started:$/);
  assert.ok(lines.includes('sluice-agent: server.listener.addr (SLUICE_AGENT_SERVER_LISTENER_ADDR): value "abc" is not hostname_port ([host]:port, such as :8080, host:8080, [::1]:8080; port 0..65535)'), r.err);
  assert.ok(lines.some((l) => l.startsWith('sluice-agent: log.level (SLUICE_AGENT_LOG_LEVEL): value "loud" is not one of')));
  assert.ok(lines.some((l) => l.startsWith('sluice-agent: etcd.endpoints (SLUICE_AGENT_ETCD_ENDPOINTS): value []: required by the agent')));
  assert.equal(lines.length, 4);
});

test('requireKeys decides what must be set', () => {
  assert.equal(run({ process: 'controller', argv: [], env: {}, requireKeys: [], defaultConfigFile: NOWHERE }).code, undefined);
  const r = run({ process: 'controller', argv: [], env: {}, defaultConfigFile: NOWHERE });
  assert.equal(r.code, 2);
  assert.match(r.err, /prometheus\.address \(SLUICE_CONTROLLER_PROMETHEUS_ADDRESS\): value "": required by the controller/);
  assert.throws(() => loadConfig({ process: 'agent', argv: [], env: {}, requireKeys: ['server.nope'] }), /server\.nope is not a key/);
});

test('--help prints usage and exits 0; an unknown flag exits 2', () => {
  const help = run({ process: 'controller', argv: ['--help'], env: {} });
  assert.equal(help.code, 0);
  assert.match(help.out, /^Usage: sluice-controller \[--config PATH\] \[--print-config\] \[--help\]/);
  assert.match(help.out, /SLUICE_CONTROLLER_/);
  const bad = run({ process: 'agent', argv: ['--port', '80'], env: ETCD, defaultConfigFile: NOWHERE });
  assert.equal(bad.code, 2);
  assert.match(bad.err, /Unknown option '--port'/);
});

test('--print-config prints the whole effective tree as JSON with set secrets masked, exit 0', () => {
  const r = run({
    process: 'agent', argv: ['--print-config'], defaultConfigFile: NOWHERE,
    env: { ...ETCD, SLUICE_AGENT_ETCD_PASSWORD: 'hunter2', SLUICE_AGENT_CLOUDEXT_API_KEY: 'k-123', SLUICE_AGENT_CLOUDEXT_ENDPOINT: 'http://127.0.0.1:9', SLUICE_AGENT_CRASH_REPORT_DSN: 'https://key@example.com/1' },
  });
  assert.equal(r.code, 0);
  const printed = JSON.parse(r.out);
  assert.equal(printed.etcd.password, '****');
  assert.equal(printed.cloudext.api_key, '****');
  assert.equal(printed.crash_report.dsn, '****');
  assert.ok(!r.out.includes('hunter2') && !r.out.includes('k-123') && !r.out.includes('example.com/1'));
  assert.equal(printed.server.listener.addr, ':8080');
  assert.equal(printed.server.http.max_header_bytes, 1048576);
  assert.equal(printed.watchdog.memory.heap.min_gogc, 25);
  assert.equal(printed.etcd.username, '');
  const unset = JSON.parse(run({ process: 'agent', argv: ['--print-config'], env: ETCD, defaultConfigFile: NOWHERE }).out);
  assert.equal(unset.etcd.password, '', 'an unset secret stays empty');
});

test('--config reads the file; a missing --config file is an error, a missing default file is not', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'agent.yaml');
  writeFileSync(file, 'etcd:\n  endpoints: ["http://127.0.0.1:2379"]\nlog:\n  level: debug\n');
  const loaded = loadConfig({ process: 'agent', argv: ['--config', file], env: {} });
  assert.equal(loaded.config.log.level, 'debug');
  assert.equal(loaded.configFile, file);
  const viaDefault = loadConfig({ process: 'agent', argv: [], env: {}, defaultConfigFile: file });
  assert.equal(viaDefault.config.log.level, 'debug');
  const none = loadConfig({ process: 'agent', argv: [], env: ETCD, defaultConfigFile: join(dir, 'absent.yaml') });
  assert.equal(none.configFile, undefined);
  const missing = run({ process: 'agent', argv: ['--config', join(dir, 'absent.yaml')], env: ETCD });
  assert.equal(missing.code, 2);
  assert.match(missing.err, /absent\.yaml: file not found/);
  const isDir = run({ process: 'agent', argv: ['--config', dir], env: ETCD });
  assert.match(isDir.err, /is a directory/);
});

test('malformed YAML is reported with its line and column, together with the other problems', (t) => {
  const file = join(tempDir(t), 'bad.yaml');
  writeFileSync(file, 'server:\n  listener:\n    addr: ":1"\n   network: tcp\n');
  const r = run({ process: 'agent', argv: ['-c', file], env: { SLUICE_AGENT_LOG_LEVEL: 'loud' } });
  assert.equal(r.code, 2);
  assert.match(r.err, new RegExp(`\\(file\\): ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: malformed YAML at line 4, column \\d+`));
  assert.match(r.err, /log\.level \(SLUICE_AGENT_LOG_LEVEL\)/);
});

test('loadConfig throws a ConfigError carrying every problem', () => {
  try {
    loadConfig({ process: 'agent', argv: ['--nope'], env: { SLUICE_AGENT_X: '1' }, defaultConfigFile: NOWHERE });
    assert.fail('accepted');
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.equal(err.code, 'SLUICE_ERR_CONFIG');
    assert.deepEqual(err.problems.map((p) => p.rule).sort(), ['cli', 'required', 'unknown-env']);
  }
});

test('app flags are parsed beside the config flags, and stay strict', () => {
  const flags = { 'local-limiters': { type: 'string' as const, description: 'limiters file', value: 'FILE' }, verbose: { type: 'boolean' as const, description: 'more' } };
  const ok = parseCliArgs(['--local-limiters', '/l.yaml', '--verbose', '-c', '/a.yaml'], flags);
  assert.deepEqual(ok.problems, []);
  assert.deepEqual(ok.args.flags, { 'local-limiters': '/l.yaml', verbose: true });
  assert.equal(ok.args.configFile, '/a.yaml');
  assert.match(parseCliArgs(['--local-limiters', ''], flags).problems[0].message, /--local-limiters needs a value/);
  assert.match(parseCliArgs(['--other'], flags).problems[0].message, /Unknown option '--other'/);
  assert.equal(parseCliArgs(['--verbose']).problems.length, 1, 'without app flags, an app flag is unknown');
});
