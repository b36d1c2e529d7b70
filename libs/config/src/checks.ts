import type { TSchema } from '@sinclair/typebox';
import { isPlainObject } from './defaults.js';
import { keyByPath, locate, node } from './keys.js';
import { problem, showValue, type ConfigProblem, type ConfigRule } from './problem.js';
import { readEnv } from './env.js';
import { PROCESSES, type ProcessSpec } from './process.js';
import {
  AgentOTelConfigSchema, BatchAlertsConfigSchema, BatchPostrollupConfigSchema, BatchPrerollupConfigSchema, ControllerOTelConfigSchema,
  InjectorConfigSchema, ServerTLSConfigSchema, WatermarksPolicySchema,
} from './schema/index.js';
import { tryParseDuration } from './duration.js';
import type { OriginOf } from './ajv-problems.js';

type Check = (value: Record<string, unknown>, path: string) => Array<{ key: string; detail: string; value: unknown; rule?: ConfigRule }>;

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
        const at = [...segments, found.key];
        const where = locate(spec, at);
        problems.push(problem({ path: where.path, env: where.env, rule: found.rule ?? 'required', value: found.value, origin: originOf(at) }, found.detail));
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
