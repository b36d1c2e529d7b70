// Helpers of the chart and manifest checks (e2e/src/charts.test.ts): reading the charts and the
// plain manifests, the reference's key tables, and small checkers of Go templates that need no Helm.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export type Obj = Record<string, unknown>;
export const read = (...p: string[]): string => readFileSync(join(ROOT, ...p), 'utf8');
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const obj = (v: unknown, what: string): Obj => { assert.ok(isObj(v), `${what} is a mapping`); return v; };
export const arr = (v: unknown, what: string): unknown[] => { assert.ok(Array.isArray(v), `${what} is a list`); return v; };
export function at(root: unknown, path: string): unknown {
  let cur = root;
  for (const seg of path.split('.')) cur = obj(cur, path)[seg];
  return cur;
}

// ---- The reference's key trees (the agent and controller configuration trees): key path -> type -------------------
export const SHARED: Record<string, string> = {
  'client.proxy': 'ProxyConfig', etcd: 'EtcdConfig', cloudext: 'CloudExtensionConfig',
  'liveness.scheduler': 'JobGroupConfig', 'liveness.service': 'JobConfig', log: 'LogConfig',
  metrics: 'MetricsConfig', profilers: 'ProfilersConfig', prometheus: 'PrometheusConfig',
  'prometheus.http_client': 'HTTPClientConfig', 'readiness.scheduler': 'JobGroupConfig',
  'readiness.service': 'JobConfig', crash_report: 'CrashReportConfig',
  'server.grpc': 'GRPCServerConfig', 'server.grpc_gateway': 'GRPCGatewayConfig',
  'server.http': 'HTTPServerConfig', 'server.listener': 'ListenerConfig', 'server.tls': 'ServerTLSConfig',
  'watchdog.memory': 'WatchdogConfig',
};
export const AGENT_TREE: Record<string, string> = {
  ...SHARED, agent_info: 'AgentInfoConfig', 'auto_scale.kubernetes': 'AutoScaleKubernetesConfig',
  dist_cache: 'DistCacheConfig', 'dist_cache.auth': 'DistCacheAuthConfig', 'flow_control.preview_service': 'FlowPreviewConfig',
  agent_functions: 'AgentFunctionsConfig', 'kubernetes_client.http_client': 'HTTPClientConfig',
  otel: 'AgentOTelConfig', peer_discovery: 'PeerDiscoveryConfig',
  'service_discovery.kubernetes': 'KubernetesDiscoveryConfig', 'service_discovery.static': 'StaticDiscoveryConfig',
  tap: 'AgentTapConfig',
};
// Beyond the reference: the controller's `injector` and the agent's peer_discovery.kubernetes_service
// (settings that were variables of their own, SLUICE_INJECTOR_* and SLUICE_PEERS_SERVICE), and the
// dist cache's `auth` and bounds (max_buckets, max_bucket_bytes, max_connections, idle_timeout), and the
// agent's in-process traffic tap (`tap`).
export const CONTROLLER_TREE: Record<string, string> = {
  ...SHARED, otel: 'ControllerOTelConfig', 'policies.cr_watcher': 'CRWatcherConfig',
  'policies.promql_jobs_scheduler': 'JobGroupConfig', injector: 'InjectorConfig',
};
export const AGENT_TOP = ['agent_functions', 'agent_info', 'auto_scale', 'client', 'cloudext', 'crash_report', 'dist_cache',
  'etcd', 'flow_control', 'kubernetes_client', 'liveness', 'log', 'metrics', 'otel', 'peer_discovery', 'profilers',
  'prometheus', 'readiness', 'server', 'service_discovery', 'tap', 'watchdog'];
export const CONTROLLER_TOP = ['client', 'cloudext', 'crash_report', 'etcd', 'injector', 'liveness', 'log', 'metrics', 'otel',
  'policies', 'profilers', 'prometheus', 'readiness', 'server', 'watchdog'];
// Fields of the objects whose members are checked (others: only their key path is checked).
export const FIELDS: Record<string, string[]> = {
  ListenerConfig: ['addr', 'keep_alive', 'network'],
  DistCacheConfig: ['auth', 'bind_addr', 'memberlist_advertise_addr', 'memberlist_bind_addr', 'replica_count', 'sync_replication',
    'max_buckets', 'max_bucket_bytes', 'max_connections', 'idle_timeout'],
  DistCacheAuthConfig: ['key_file', 'keys', 'insecure'],
  FlowPreviewConfig: ['enabled'],
  ServerTLSConfig: ['allowed_cn', 'cert_file', 'client_ca_file', 'key_file', 'enabled'],
  LogConfig: ['level', 'non_blocking', 'pretty_console', 'writers'],
  EtcdConfig: ['endpoints', 'lease_ttl', 'namespace', 'username', 'password', 'tls'],
  PrometheusConfig: ['address', 'labels'],
  PeerDiscoveryConfig: ['advertisement_addr', 'kubernetes_service'],
  InjectorConfig: ['mode', 'tap_image', 'agent_image', 'image_pull_policy', 'tap_port', 'control_point', 'agent_address',
    'sidecar_agent_port', 'sidecar_agent_config_map', 'sidecar_agent_env', 'tap_admin_port', 'agent_tls_secret', 'agent_tls_client_cert',
    'sidecar_agent_key_secret', 'sidecar_agent_memory_limit', 'sidecar_agent_semi_space_mb'],
  AgentInfoConfig: ['agent_group'],
  AgentTapConfig: ['enabled', 'listen', 'upstream', 'control_point', 'body_bytes', 'check_timeout', 'upstream_timeout', 'fail_closed',
    'max_request_header_bytes', 'max_response_header_bytes', 'max_request_headers', 'max_response_headers', 'merge_slashes'],
  CRWatcherConfig: ['enabled'],
  KubernetesDiscoveryConfig: ['enabled'],
  AutoScaleKubernetesConfig: ['enabled'],
  StaticDiscoveryConfig: ['entities'],
  MetricsConfig: ['enable_go_metrics', 'enable_process_collector', 'pedantic'],
  JobGroupConfig: ['blocking_execution', 'worker_limit'],
  JobConfig: ['execution_period', 'execution_timeout', 'initially_healthy'],
  GRPCServerConfig: ['connection_timeout', 'enable_reflection', 'latency_buckets_ms'],
  GRPCGatewayConfig: ['grpc_server_address'],
  HTTPServerConfig: ['disable_http_keep_alives', 'idle_timeout', 'latency_buckets_ms', 'max_header_bytes',
    'read_header_timeout', 'read_timeout', 'write_timeout'],
  ProfilersConfig: ['cpu_profiler', 'profiles_path', 'register_http_routes'],
  ProxyConfig: ['http', 'https', 'no_proxy'],
};

/** Key paths of `config` that are not in the tree (or not fields of a checked object). */
export function unknownConfigKeys(config: unknown, tree: Record<string, string>, prefix = ''): string[] {
  if (!isObj(config)) return prefix ? [] : ['(config is not a mapping)'];
  const bad: string[] = [];
  const type = prefix ? tree[prefix] : undefined;
  for (const [key, value] of Object.entries(config)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const isBranch = Object.keys(tree).some((p) => p === path || p.startsWith(`${path}.`));
    if (isBranch) bad.push(...unknownConfigKeys(value, tree, path));
    else if (type === undefined || (FIELDS[type] && !FIELDS[type].includes(key))) bad.push(path);
  }
  return bad;
}

/** Every environment variable name the reference allows for the checked objects' fields. */
export function envNames(tree: Record<string, string>, processPrefix: string): Set<string> {
  const names = new Set<string>();
  for (const [path, type] of Object.entries(tree)) {
    for (const field of FIELDS[type] ?? []) names.add(processPrefix + `${path}.${field}`.toUpperCase().replace(/\./g, '_'));
  }
  return names;
}

// ---- Go templates, read as text ---------------------------------------------------------------
export interface Action { body: string; start: number; end: number }
export function actions(text: string): Action[] {
  const out: Action[] = [];
  for (const m of text.matchAll(/\{\{-?\s*([\s\S]*?)\s*-?\}\}/g)) {
    if (!m[1].startsWith('/*')) out.push({ body: m[1], start: m.index, end: m.index + m[0].length });
  }
  return out;
}
/** Bodies of `define`s; throws when if/range/with/define/block and end do not balance. */
export function defines(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const stack: { name?: string; from: number }[] = [];
  for (const a of actions(text)) {
    const word = a.body.split(/\s+/)[0];
    if (['if', 'range', 'with', 'define', 'block'].includes(word)) {
      const name = word === 'define' ? /^define\s+"([^"]+)"/.exec(a.body)?.[1] : undefined;
      stack.push({ name, from: a.end });
    } else if (word === 'end') {
      const open = stack.pop();
      if (!open) throw new Error(`unbalanced end at ${a.start}`);
      if (open.name !== undefined) {
        if (found.has(open.name)) throw new Error(`define "${open.name}" twice`);
        found.set(open.name, text.slice(open.from, a.start));
      }
    }
  }
  if (stack.length > 0) throw new Error(`${stack.length} block(s) without end`);
  return found;
}
/** Drops lines made only of template actions and replaces inline actions with a placeholder. */
export function detemplate(text: string): string {
  return text.split('\n').filter((line) => !/^\s*(\{\{[\s\S]*?\}\}\s*)+$/.test(line))
    .map((line) => line.replace(/\{\{[\s\S]*?\}\}/g, 'TEMPLATE')).join('\n');
}
/** `.Values.a.b` references that do not resolve to a key of values.yaml. */
export function missingValues(text: string, values: unknown): string[] {
  const missing: string[] = [];
  for (const m of text.matchAll(/\.Values((?:\.[A-Za-z_][A-Za-z0-9_]*)+)/g)) {
    let cur: unknown = values;
    for (const seg of m[1].slice(1).split('.')) {
      if (!isObj(cur) || !Object.hasOwn(cur, seg)) { missing.push(m[0]); break; }
      cur = cur[seg];
    }
  }
  return missing;
}
export const includesOf = (text: string): string[] =>
  [...text.matchAll(/\b(?:include|template)\s+"([^"]+)"/g)].map((m) => m[1]);

// ---- The charts ---------------------------------------------------------------------------------
export interface Chart { dir: string; prefix: string; tree: Record<string, string>; configFile: string; image: string; command: string }
export const CHARTS: Chart[] = [
  { dir: 'sluice-agent', prefix: 'SLUICE_AGENT_', tree: AGENT_TREE, configFile: 'agent.yaml', image: 'sluice/agent', command: 'sluice-agent' },
  { dir: 'sluice-controller', prefix: 'SLUICE_CONTROLLER_', tree: CONTROLLER_TREE, configFile: 'controller.yaml', image: 'sluice/controller', command: 'sluice-controller' },
];
export const templateFiles = (c: Chart): string[] => readdirSync(join(ROOT, 'charts', c.dir, 'templates')).sort();
export const template = (c: Chart, f: string): string => read('charts', c.dir, 'templates', f);
export const values = (c: Chart): Obj => obj(parse(read('charts', c.dir, 'values.yaml')), `${c.dir} values.yaml`);
const labelOf = (d: Obj, key: string): unknown => {
  const labels = isObj(d.metadata) ? d.metadata.labels : undefined;
  return isObj(labels) ? labels[key] : undefined;
};
/** The plain manifests' objects of the chart's own component (`app.kubernetes.io/name` is the chart). */
export const docsOf = (c: Chart): Obj[] => manifestDocs().filter((d) => labelOf(d, 'app.kubernetes.io/name') === c.dir);
/** Every object of the chart's release (`app.kubernetes.io/instance`), the embedded etcd and Prometheus included. */
export const releaseDocs = (c: Chart): Obj[] => manifestDocs().filter((d) => labelOf(d, 'app.kubernetes.io/instance') === c.dir);
/** The documents of a template, its actions stripped (a template may hold several, split by `---`). */
export function templateDocs(text: string, what: string): Obj[] {
  const docs = parseAllDocuments(detemplate(text));
  for (const d of docs) assert.deepEqual(d.errors.map(String), [], `${what} parses`);
  return docs.map((d) => d.toJS() as unknown).filter((d) => d !== null && d !== undefined).map((d) => obj(d, what));
}
/** The CRD copies that must stay byte-equal to crds/policies.sluice.dev.yaml. */
export const CRD_COPIES = [['charts', 'sluice-controller', 'crds', 'policies.sluice.dev.yaml'], ['deploy', 'kubernetes', '05-crd-policies.yaml']];
export const objectNamed = (docs: Obj[], kind: string, name: string): Obj => {
  const m = docs.filter((d) => d.kind === kind && at(d, 'metadata.name') === name);
  assert.equal(m.length, 1, `one ${kind} ${name}`);
  return m[0];
};
export function manifestDocs(): Obj[] {
  const dir = join('deploy', 'kubernetes');
  const out: Obj[] = [];
  for (const f of readdirSync(join(ROOT, dir)).filter((n) => n.endsWith('.yaml') && n !== 'kustomization.yaml').sort()) {
    for (const doc of parseAllDocuments(read(dir, f))) {
      assert.deepEqual(doc.errors.map(String), [], `${f} parses`);
      out.push(obj(doc.toJS(), `a document of ${f}`));
    }
  }
  return out;
}
export const ofKind = (docs: Obj[], kind: string): Obj[] => docs.filter((d) => d.kind === kind);
export const one = (docs: Obj[], kind: string): Obj => { const m = ofKind(docs, kind); assert.equal(m.length, 1, `one ${kind}`); return m[0]; };
export const workload = (c: Chart): Obj => one(docsOf(c), c.dir === 'sluice-agent' ? 'DaemonSet' : 'Deployment');
export const firstContainer = (w: Obj): Obj => obj(arr(at(w, 'spec.template.spec.containers'), 'containers')[0], 'container');
