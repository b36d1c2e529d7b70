import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import type { TSchema } from '@sinclair/typebox';
import { envNameOf, keyByEnv, keyNodes, leafNodes, node } from './keys.js';
import { formatDuration } from './duration.js';
import { parseConfigText } from './file.js';
import { ConfigError } from './problem.js';
import { PROCESSES, type ProcessName } from './process.js';
import { resolveConfig } from './resolve.js';

const NAMES: ProcessName[] = ['agent', 'controller'];

/**
 * Siblings a leaf needs to be valid on its own: TLS on needs its certificate and key, the tap on its
 * upstream; the injector's two ports differ (the other one moves off the value drawn).
 */
function companions(prefix: string, path: string, value?: unknown): Record<string, string> {
  if (path === 'server.tls.enabled') return { [`${prefix}SERVER_TLS_CERT_FILE`]: '/c.pem', [`${prefix}SERVER_TLS_KEY_FILE`]: '/k.pem' };
  // An API key needs an endpoint to send heartbeats to.
  if (path === 'cloudext.api_key' && value !== '') return { [`${prefix}CLOUDEXT_ENDPOINT`]: 'http://127.0.0.1:9' };
  if (path === 'tap.enabled' && value === true) return { [`${prefix}TAP_UPSTREAM`]: 'http://127.0.0.1:3000' };
  const other = { 'injector.tap_port': 'SIDECAR_AGENT_PORT', 'injector.sidecar_agent_port': 'TAP_PORT' }[path];
  if (other !== undefined) return { [`${prefix}INJECTOR_${other}`]: value === 1 ? '2' : '1' };
  return {};
}

function at(config: unknown, segments: readonly string[]): unknown {
  let v = config;
  for (const s of segments) v = (v as Record<string, unknown>)[s];
  return v;
}

const port = fc.integer({ min: 0, max: 65_535 });
const host = fc.constantFrom('', 'localhost', '127.0.0.1', 'sluice-agent.default.svc', '[::1]', '[fe80::1%eth0]', 'a-b.example.com');
const FORMAT_ARBS: Record<string, fc.Arbitrary<string>> = {
  empty: fc.constant(''),
  hostname_port: fc.tuple(host, port).map(([h, p]) => `${h}:${p}`),
  url: fc.tuple(fc.constantFrom('http', 'https'), fc.constantFrom('localhost', '127.0.0.1', 'api.example.com', '[::1]'), port, fc.constantFrom('', '/', '/v1')).map(([s, h, p, path]) => `${s}://${h}:${p}${path}`),
  fqdn: fc.tuple(fc.constantFrom('api', 'a1', 'x-y'), fc.constantFrom('example.com', 'svc.cluster.local', 'io')).map(([a, b]) => `${a}.${b}`),
  ip: fc.oneof(fc.ipV4(), fc.ipV6()),
  duration: fc.nat(100_000_000).map(formatDuration),
  signed_duration: fc.integer({ min: -100_000_000, max: 100_000_000 }).map(formatDuration),
  image: fc.tuple(fc.constantFrom('', 'registry.example/', 'localhost:5000/', '10.0.0.1:5000/'), fc.constantFrom('tap', 'sluice/tap', 'a/b-c/d__e.f'),
    fc.constantFrom('', ':0.1.0', ':latest', ':v1_2-rc.3'), fc.constantFrom('', `@sha256:${'a0'.repeat(32)}`)).map((parts) => parts.join('')),
  memory_limit: fc.tuple(fc.integer({ min: 1, max: 999_999 }), fc.constantFrom('Mi', 'Gi')).map(([n, u]) => `${n}${u}`),
  dns_label: fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?$/),
  dns_subdomain: fc.array(fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/), { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
};
const HEADER = fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/);
const ENV_NAME = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/);

/**
 * Leaves whose valid values are narrower than their schema's type and format: a hosted controller
 * is refused at start; the agent's tap's bounds and the form of its upstream are cross-field rules
 * (checks.ts).
 */
const LEAF_ARBS: Record<string, fc.Arbitrary<unknown>> = {
  'cloudext.enable_cloud_controller': fc.constant(false),
  'tap.check_timeout': fc.integer({ min: 1, max: 60_000 }).map(formatDuration),
  'tap.upstream_timeout': fc.nat(3_600_000).map(formatDuration),
  'tap.upstream': fc.oneof(fc.constant(''), fc.tuple(fc.constantFrom('localhost', '127.0.0.1', 'api.example.com', '[::1]'), port, fc.constantFrom('', '/'))
    .map(([h, p, path]) => `http://${h}:${p}${path}`)),
  'tap.control_point': fc.stringMatching(/^\S{1,40}$/),
};

/** Any valid value of a leaf. */
function leafArb(leaf: { path: string; schema: TSchema }): fc.Arbitrary<unknown> {
  return LEAF_ARBS[leaf.path] ?? valueArb(leaf.schema);
}

/** Any valid value of a schema, as a JS value. */
function valueArb(schema: TSchema): fc.Arbitrary<unknown> {
  const n = node(schema);
  if (n.enum !== undefined) return fc.constantFrom(...n.enum);
  if (n.properties !== undefined) {
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, child] of Object.entries(n.properties)) record[k] = valueArb(child);
    return fc.record(record, { noNullPrototype: true });
  }
  if (n.patternProperties !== undefined) {
    // Maps: header name to a list of values, or variable name to a value.
    const values = node(Object.values(n.patternProperties)[0]);
    if (values.type === 'string') return fc.dictionary(ENV_NAME, fc.string({ maxLength: 20 }), { maxKeys: 3, noNullPrototype: true });
    return fc.dictionary(HEADER, fc.array(fc.string(), { maxLength: 3 }), { maxKeys: 3, noNullPrototype: true });
  }
  switch (n.type) {
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: Math.max(n.minimum ?? -1e9, -1e9), max: Math.min(n.maximum ?? 1e9, 1e9) });
    case 'number': {
      const min = n.minimum ?? -1e6;
      const max = n.maximum ?? 1e6;
      return fc.integer({ min: 0, max: 1_000_000 }).map((i) => min + ((max - min) * i) / 1_000_000);
    }
    case 'string':
      if (n.format !== undefined) return fc.oneof(...n.format.split('|').map((f) => FORMAT_ARBS[f] as fc.Arbitrary<string>));
      return fc.string({ minLength: n.minLength ?? 0, maxLength: 20 });
    case 'array': {
      const items = node(n.items as TSchema);
      if (n['x-increasing'] === true) {
        const min = items.minimum ?? 0;
        const max = items.maximum ?? 1e6;
        return fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 8 })
          .map((xs) => [...xs].sort((a, b) => a - b).map((i) => min + ((max - min) * i) / 10_000));
      }
      return fc.array(valueArb(n.items as TSchema), { maxLength: 3 });
    }
    default:
      throw new Error(`no generator for ${JSON.stringify(n)}`);
  }
}

/** How a value is written in an env variable: JSON for lists, maps and objects; plain text otherwise. */
function envText(schema: TSchema, value: unknown, variant: number): string {
  if (typeof value === 'boolean') return [String(value), value ? '1' : '0', String(value).toUpperCase()][variant % 3];
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string' && node(schema).type === 'string') return value;
  return JSON.stringify(value);
}

test('every key of both trees has a distinct env variable that maps back to it', () => {
  for (const name of NAMES) {
    const spec = PROCESSES[name];
    const nodes = keyNodes(spec);
    assert.equal(new Set(nodes.map((k) => k.env)).size, nodes.length, `${name}: env names collide`);
    fc.assert(fc.property(fc.constantFrom(...nodes), (k) => {
      assert.equal(keyByEnv(spec, envNameOf(spec.envPrefix, k.path))?.path, k.path);
      assert.equal(k.env, spec.envPrefix + k.segments.map((s) => s.toUpperCase()).join('_'));
    }), { numRuns: 200 });
  }
  assert.equal(keyByEnv(PROCESSES.agent, 'SLUICE_AGENT_FLOW_CONTROL_PREVIEW_SERVICE_ENABLED')?.path, 'flow_control.preview_service.enabled');
  assert.ok(leafNodes(PROCESSES.agent).length > 200);
});

for (const name of NAMES) {
  test(`${name}: any valid value of any leaf, set by its env variable, lands at that key`, () => {
    const spec = PROCESSES[name];
    const arb = fc.constantFrom(...leafNodes(spec)).chain((leaf) => fc.tuple(fc.constant(leaf), leafArb(leaf), fc.nat(2)));
    fc.assert(fc.property(arb, ([leaf, value, variant]) => {
      const env = { ...companions(spec.envPrefix, leaf.path, value), [leaf.env]: envText(leaf.schema, value, variant) };
      const config = resolveConfig({ process: name, requireKeys: [], env });
      assert.deepEqual(at(config, leaf.segments), value);
    }), { numRuns: 400 });
  });

  test(`${name}: any valid value of any leaf, set in the file, lands at that key`, () => {
    const spec = PROCESSES[name];
    const arb = fc.constantFrom(...leafNodes(spec)).chain((leaf) => fc.tuple(fc.constant(leaf), leafArb(leaf)));
    fc.assert(fc.property(arb, ([leaf, value]) => {
      const tree: Record<string, unknown> = {};
      let cursor = tree;
      leaf.segments.slice(0, -1).forEach((s) => { cursor = (cursor[s] = {}) as Record<string, unknown>; });
      cursor[leaf.segments[leaf.segments.length - 1]] = value;
      const parsed = parseConfigText('/etc/p.yaml', stringify(tree));
      assert.deepEqual(parsed.problems, []);
      const config = resolveConfig({ process: name, requireKeys: [], file: parsed.file, env: companions(spec.envPrefix, leaf.path, value) });
      assert.deepEqual(at(config, leaf.segments), value);
    }), { numRuns: 300 });
  });
}

test('junk under the prefix is rejected with a hint naming a real key', () => {
  for (const name of NAMES) {
    const spec = PROCESSES[name];
    const names = new Set(keyNodes(spec).map((k) => k.env));
    const junk = fc.stringMatching(/^[A-Z0-9_]{0,40}$/).map((s) => spec.envPrefix + s).filter((s) => !names.has(s));
    fc.assert(fc.property(junk, fc.string(), (variable, value) => {
      try {
        resolveConfig({ process: name, requireKeys: [], env: { [variable]: value } });
      } catch (err) {
        assert.ok(err instanceof ConfigError);
        const p = err.problems.find((q) => q.rule === 'unknown-env');
        assert.ok(p !== undefined);
        assert.equal(p.env, variable);
        const hint = /did you mean (\S+) \(([^)]+)\)\?/.exec(p.message);
        assert.ok(hint !== null, p.message);
        assert.ok(names.has(hint[1]), hint[1]);
        assert.equal(keyByEnv(spec, hint[1])?.path, hint[2]);
        return;
      }
      assert.fail(`${variable} was accepted`);
    }), { numRuns: 150 });
  }
});

test('variables of other prefixes and lower-case look-alikes are ignored', () => {
  const c = resolveConfig({ process: 'agent', requireKeys: [], env: { SLUICE_CONTROLLER_LOG_LEVEL: 'x', sluice_agent_log_level: 'x', SLUICE_TAP_X: '1', PATH: '/bin' } });
  assert.equal(c.log.level, 'info');
});

test('whatever the env and the file hold, the loader returns a config or throws a ConfigError', () => {
  const spec = PROCESSES.agent;
  const leaves = leafNodes(spec).map((k) => k.env);
  const envArb = fc.dictionary(fc.oneof(fc.constantFrom(...leaves), fc.string().map((s) => `SLUICE_AGENT_${s}`)), fc.oneof(fc.string(), fc.json()), { maxKeys: 6 });
  const fileArb = fc.oneof(
    fc.string(),
    fc.jsonValue().map((v) => stringify(v)),
    fc.dictionary(fc.constantFrom('server', 'log', 'etcd', 'watchdog', 'bogus'), fc.jsonValue(), { maxKeys: 3 }).map((v) => stringify(v)),
  );
  fc.assert(fc.property(envArb, fileArb, (env, text) => {
    const parsed = parseConfigText('/etc/f.yaml', text);
    try {
      resolveConfig({ process: 'agent', env, file: parsed.file, problems: parsed.problems });
    } catch (err) {
      assert.ok(err instanceof ConfigError, String(err));
      for (const p of err.problems) assert.ok(p.message.length > 0 && !p.message.includes('undefined'), p.message);
    }
  }), { numRuns: 300 });
});
