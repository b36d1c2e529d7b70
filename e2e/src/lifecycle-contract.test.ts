// The lifecycle contract (libs/lifecycle, docs/architecture.md "One lifecycle"): a long-lived class in
// libs/ stops through `shutdown` and says so with `implements` (Lifecycle, or an interface extending it).
// Classes that still stop another way are listed below with what they are; the list only shrinks: the
// test fails when a class not on it stops in another way, and when one on it no longer does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './support/processes.js';

/** Classes that still stop with close/stop/dispose, by `lib/Class`. */
const NOT_YET: ReadonlyMap<string, string> = new Map([
  ['distcache/GossipTransport', 'the UDP membership transport (close), owned by DistCache'],
  ['distcache/OpsServer', 'the operations listener (close), owned by DistCache'],
  ['distcache/PeerClient', 'the connection to one peer (close), owned by DistCache'],
  ['server/Http2RestBridge', 'the HTTP/2 gateway bridge (close), owned by the server'],
  ['server/InternalListener', 'the in-process listener (close), owned by the server'],
  ['server/SharedListener', 'the one port (close), owned by the server'],
  ['server/UpgradeRoutes', 'upgraded connections (close), owned by the server'],
  ['server/GatewayClient', 'the gateway\'s loopback gRPC client (close), owned by the server'],
  ['telemetry/LoggerCore', 'the logger (close: the last lines are written), closed last by each app'],
  ['telemetry/BoundLogger', 'the logger (close), closed last by each app'],
]);

/** Classes with a shutdown of another shape, by `lib/Class`. */
const OTHER_SHUTDOWN: ReadonlyMap<string, string> = new Map([
  ['server/GrpcServer', 'the gRPC half of the server: shutdown(deadlineMs), owned by the server'],
]);

/** OpenTelemetry's exporter contract has the same shutdown and forceFlush. */
const OTEL_CONTRACTS = ['PushMetricExporter'];

const STOPS_OTHERWISE = /^ {2}(?:public |private |protected )?(?:async )?(close|stop|dispose)\s*\(/;
const SHUTDOWN = /^ {2}(?:public |readonly )*(?:async )?shutdown\s*[(=]/;

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated' && name !== 'testing' && name !== 'testdata') sources(path, out);
    } else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') && !name.includes('test-support')) {
      out.push(path);
    }
  }
  return out;
}

interface ClassInfo { lib: string; name: string; file: string; heritage: string; stopsOtherwise: string[]; hasShutdown: boolean }

function classes(): ClassInfo[] {
  const out: ClassInfo[] = [];
  const libs = join(ROOT, 'libs');
  for (const lib of readdirSync(libs)) {
    for (const file of sources(join(libs, lib, 'src'))) {
      let current: ClassInfo | undefined;
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        const head = /^(?:export )?(?:abstract )?class (\w+)([^{]*)\{/.exec(line);
        if (head !== null) {
          current = { lib, name: head[1] as string, file: relative(ROOT, file), heritage: head[2] ?? '', stopsOtherwise: [], hasShutdown: false };
          out.push(current);
          continue;
        }
        if (current === undefined) continue;
        if (line.startsWith('}')) { current = undefined; continue; }
        const other = STOPS_OTHERWISE.exec(line);
        if (other !== null) current.stopsOtherwise.push(other[1] as string);
        if (SHUTDOWN.test(line)) current.hasShutdown = true;
      }
    }
  }
  return out;
}

/** Interfaces (and type aliases) in libs/ that are, or extend, the contract. */
function contractNames(): Set<string> {
  const names = new Set(['Lifecycle', 'NamedLifecycle', ...OTEL_CONTRACTS]);
  const libs = join(ROOT, 'libs');
  const decls: Array<[string, string]> = [];
  for (const lib of readdirSync(libs)) {
    for (const file of sources(join(libs, lib, 'src'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/(?:interface (\w+)(?:<[^>]*>)? extends ([^{]+)\{|type (\w+) = ([\w<>, ]+);)/g)) {
        decls.push([(m[1] ?? m[3]) as string, (m[2] ?? m[4]) as string]);
      }
    }
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const [name, parents] of decls) {
      if (!names.has(name) && parents.split(/[\s,<>]+/).some((p) => names.has(p))) { names.add(name); grew = true; }
    }
  }
  return names;
}

test('long-lived classes in libs/ stop through the lifecycle contract', () => {
  const found = classes();
  assert.ok(found.length > 50, `the scan found ${found.length} classes: it no longer reads the sources`);
  const contract = contractNames();
  const problems: string[] = [];
  const stillListed = new Set<string>();
  for (const c of found) {
    const key = `${c.lib}/${c.name}`;
    if (c.stopsOtherwise.length > 0) {
      if (NOT_YET.has(key)) stillListed.add(key);
      else problems.push(`${c.file}: class ${c.name} stops with ${c.stopsOtherwise.join(', ')}(): name it shutdown and implement Lifecycle (libs/lifecycle)`);
    }
    const implemented = /implements\s+(.+)$/.exec(c.heritage.trim())?.[1] ?? '';
    if (c.hasShutdown && !OTHER_SHUTDOWN.has(key) && !implemented.split(/[\s,<>]+/).some((n) => contract.has(n))) {
      problems.push(`${c.file}: class ${c.name} has shutdown but does not implement Lifecycle (or an interface extending it)`);
    }
  }
  for (const key of OTHER_SHUTDOWN.keys()) {
    if (!found.some((c) => `${c.lib}/${c.name}` === key && c.hasShutdown)) problems.push(`${key} is listed with a shutdown of another shape but has none (or is gone): take it off the list`);
  }
  for (const key of NOT_YET.keys()) {
    if (!stillListed.has(key)) problems.push(`${key} is listed as stopping another way but no longer does (or is gone): take it off the list`);
  }
  assert.deepEqual(problems, []);
});

test('the scan sees what it looks for', () => {
  const found = classes();
  const byKey = new Map(found.map((c) => [`${c.lib}/${c.name}`, c]));
  // A class adopted, one implementing an interface that extends the contract, and one still listed.
  assert.equal(byKey.get('jobs/JobGroup')?.hasShutdown, true);
  assert.match(byKey.get('etcd/EtcdClient')?.heritage ?? '', /implements SluiceEtcd/);
  assert.ok(contractNames().has('SluiceEtcd'));
  assert.deepEqual(byKey.get('server/SharedListener')?.stopsOtherwise, ['close']);
});
