import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from './defaults.js';
import { keyByPath, locate, node } from './keys.js';
import { problem, showValue, type ConfigProblem, type ConfigRule } from './problem.js';
import { readEnv } from './env.js';
import { PROCESSES, type ProcessSpec } from './process.js';
import {
  AgentConfigSchema, AgentOTelConfigSchema, AgentTapConfigSchema, BatchAlertsConfigSchema, BatchPostrollupConfigSchema, BatchPrerollupConfigSchema,
  CloudExtensionConfigSchema, ControllerCloudExtensionConfigSchema, ControllerOTelConfigSchema, InjectorConfigSchema, ServerTLSConfigSchema, WatermarksPolicySchema,
} from './schema/index.js';
import { tryParseDuration } from './duration.js';
import type { OriginOf } from './ajv-problems.js';

type Check = (value: Record<string, unknown>, path: string) => Array<{ key: string; detail: string; value: unknown; rule?: ConfigRule }>;

/** Heartbeats need an address: an API key without an endpoint would send nothing, silently. */
const cloudEndpoint: Check = (cloud, path) => {
  if (typeof cloud.api_key !== 'string' || cloud.api_key === '' || cloud.endpoint !== '') return [];
  return [{ key: 'endpoint', value: cloud.endpoint, detail: `value "" must be set when ${path}.api_key is set (heartbeats are sent there)` }];
};

/** The port of a `[host]:port` address, or undefined when there is none to compare (port 0: the system picks one). */
function portOf(addr: unknown): number | undefined {
  if (typeof addr !== 'string') return undefined;
  const m = /:(\d+)$/.exec(addr);
  const port = m === null ? 0 : Number(m[1]);
  return port === 0 ? undefined : port;
}

function at(tree: Record<string, unknown>, path: string): unknown {
  let v: unknown = tree;
  for (const s of path.split('.')) v = isPlainObject(v) ? v[s] : undefined;
  return v;
}

/** The in-process tap's own rules: an upstream when enabled, in the form the tap forwards to, and its bounds. */
const tapCheck: Check = (tap, path) => {
  const found: ReturnType<Check> = [];
  if (tap.enabled === true && tap.upstream === '') {
    found.push({ key: 'upstream', value: tap.upstream, detail: `value "" must be set when ${path}.enabled is true: the workload the tap forwards to, http://host:port` });
  }
  if (typeof tap.upstream === 'string' && tap.upstream !== '') {
    let url: URL | undefined;
    try { url = new URL(tap.upstream); } catch { url = undefined; }
    if (url !== undefined && (url.protocol !== 'http:' || url.username !== '' || url.password !== '' || !['', '/'].includes(url.pathname) || url.search !== '' || url.hash !== '')) {
      found.push({ key: 'upstream', value: tap.upstream, rule: 'invalid', detail: `value ${showValue(tap.upstream)} is not http://host:port: the tap speaks plain HTTP to the workload, with no path, query or credentials` });
    }
  }
  const bounded = (key: string, minMs: number, maxMs: number, text: string): void => {
    const ms = typeof tap[key] === 'string' ? tryParseDuration(tap[key]) : undefined;
    if (ms !== undefined && (ms < minMs || ms > maxMs)) found.push({ key, value: tap[key], rule: 'invalid', detail: `value ${showValue(tap[key])} is out of range ${text}` });
  };
  bounded('check_timeout', 1, 60_000, '1ms..60s');
  bounded('upstream_timeout', 0, 3_600_000, '0s..1h');
  const cp = tap.control_point;
  if (typeof cp === 'string' && (cp.length > 256 || /\s/.test(cp))) {
    found.push({ key: 'control_point', value: cp.slice(0, 64), rule: 'invalid', detail: 'must be 1..256 characters without spaces' });
  }
  return found;
};

/** Ports of the agent that the in-process tap must not share. */
const AGENT_PORT_KEYS = ['server.listener.addr', 'dist_cache.bind_addr', 'dist_cache.memberlist_bind_addr'] as const;

/** An enabled in-process tap listens on a port of its own (a clash would stop the agent at start). */
const agentCheck: Check = (agent) => {
  if (at(agent, 'tap.enabled') !== true) return [];
  const tapPort = portOf(at(agent, 'tap.listen'));
  if (tapPort === undefined) return [];
  return AGENT_PORT_KEYS.filter((k) => portOf(at(agent, k)) === tapPort).map((k) => ({
    key: 'tap.listen', value: at(agent, 'tap.listen'), rule: 'invalid' as const,
    detail: `value ${showValue(at(agent, 'tap.listen'))} has port ${tapPort}, also the port of ${k}: the tap needs a port of its own`,
  }));
};

/** A batch's upper limit, when set, is at least the size that triggers sending it. */
const batchCheck: Check = (b, path) => {
  const max = b.send_batch_max_size;
  const size = b.send_batch_size;
  if (typeof max !== 'number' || typeof size !== 'number' || max === 0 || max >= size) return [];
  return [{ key: 'send_batch_max_size', value: max, rule: 'invalid', detail: `value ${max} is below ${path}.send_batch_size (${size}): a batch is split at most at the size that sends it; 0 means no limit` }];
};

/** The export interval is a period: it must be above zero. */
const otelCheck: Check = (o) => {
  const ms = typeof o.export_interval === 'string' ? tryParseDuration(o.export_interval) : undefined;
  if (ms === undefined || ms > 0) return [];
  return [{ key: 'export_interval', value: o.export_interval, rule: 'invalid', detail: `value ${showValue(o.export_interval)} must be above 0s` }];
};

/** Rules that involve more than one field, keyed by the object schema they apply to. */
const CHECKS = new Map<TSchema, Check>([
  [CloudExtensionConfigSchema, cloudEndpoint],
  [ControllerCloudExtensionConfigSchema, (cloud, path) => {
    const found = cloudEndpoint(cloud, path);
    // The hosted controller this key stands for does not exist for Sluice: refusing is better
    // than starting a controller that ignores what was asked.
    if (cloud.enable_cloud_controller === true) {
      found.push({
        key: 'enable_cloud_controller', value: true, rule: 'invalid',
        detail: 'value true is not supported: no hosted controller is available; run this controller with its own etcd and TLS settings and leave the key false',
      });
    }
    return found;
  }],
  [AgentTapConfigSchema, tapCheck],
  [AgentConfigSchema, agentCheck],
  [BatchAlertsConfigSchema, batchCheck],
  [BatchPostrollupConfigSchema, batchCheck],
  [BatchPrerollupConfigSchema, batchCheck],
  [AgentOTelConfigSchema, otelCheck],
  [ControllerOTelConfigSchema, otelCheck],
  [ServerTLSConfigSchema, (tls, path) => {
    if (tls.enabled !== true) return [];
    return ['cert_file', 'key_file']
      .filter((k) => tls[k] === '')
      .map((k) => ({ key: k, value: tls[k], detail: `value "" must be set when ${path}.enabled is true` }));
  }],
  [WatermarksPolicySchema, (policy) => {
    if (policy.enabled !== true || !Array.isArray(policy.watermarks) || policy.watermarks.length > 0) return [];
    return [{ key: 'watermarks', value: policy.watermarks, detail: 'value [] must list at least one watermark when the policy is enabled' }];
  }],
  [InjectorConfigSchema, (injector, path) => {
    const found: ReturnType<Check> = [];
    if (injector.tap_port === injector.sidecar_agent_port) {
      found.push({ key: 'tap_port', value: injector.tap_port, rule: 'invalid', detail: `value ${showValue(injector.tap_port)} is also ${path}.sidecar_agent_port: the tap and the sidecar agent need ports of their own` });
    }
    for (const other of ['tap_port', 'sidecar_agent_port'] as const) {
      if (injector.tap_admin_port === injector[other]) {
        found.push({ key: 'tap_admin_port', value: injector.tap_admin_port, rule: 'invalid', detail: `value ${showValue(injector.tap_admin_port)} is also ${path}.${other}: the tap's admin port needs a port of its own` });
      }
    }
    // The injected agent reads these variables as its configuration: names it has no key for, and
    // values its keys' types refuse, would stop every injected agent at start. (Its listener
    // address is sidecar_agent_port's.)
    // (Values that are no strings are the schema's problem.)
    const given = isPlainObject(injector.sidecar_agent_env) ? Object.entries(injector.sidecar_agent_env) : [];
    const env = Object.fromEntries(given.filter((e): e is [string, string] => typeof e[1] === 'string'));
    delete env[`${PROCESSES.agent.envPrefix}SERVER_LISTENER_ADDR`];
    for (const p of readEnv(PROCESSES.agent, env).problems) {
      found.push({ key: 'sidecar_agent_env', value: env[p.env], rule: 'invalid', detail: `the injected agent would refuse ${p.env}: ${p.message}` });
    }
    return found;
  }],
]);

/** Runs the cross-field rules over a tree that passed schema validation. */
export function crossFieldProblems(spec: ProcessSpec, config: unknown, originOf: OriginOf): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const walk = (schema: TSchema, value: unknown, segments: string[]) => {
    if (!isPlainObject(value)) return;
    const check = CHECKS.get(schema);
    if (check !== undefined) {
      for (const found of check(value, locate(spec, segments).path)) {
        const keyAt = [...segments, ...found.key.split('.')];
        const where = locate(spec, keyAt);
        problems.push(problem({ path: where.path, env: where.env, rule: found.rule ?? 'required', value: found.value, origin: originOf(keyAt) }, found.detail));
      }
    }
    for (const [name, child] of Object.entries(node(schema).properties ?? {})) walk(child, value[name], [...segments, name]);
  };
  walk(spec.schema, config, []);
  return problems;
}

/** Keys the process cannot run without: an empty string or an empty list is "not set". */
export function requiredKeyProblems(spec: ProcessSpec, config: Record<string, unknown>, requireKeys: readonly string[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const path of requireKeys) {
    const key = keyByPath(spec, path);
    if (key === undefined || !key.leaf) throw new TypeError(`requireKeys: ${path} is not a key of the ${spec.name} configuration`);
    let value: unknown = config;
    for (const s of key.segments) value = isPlainObject(value) ? value[s] : undefined;
    if (value === '' || (Array.isArray(value) && value.length === 0)) {
      problems.push(problem(
        { path, env: key.env, rule: 'required', value },
        `value ${showValue(value)}: required by the ${spec.name}, but not set`,
      ));
    }
  }
  return problems;
}
