import { isObjectSchema, keyNodes, node, type KeyNode } from './keys.js';
import { nearest } from '@sluice/schema';
import { problem, showValue, type ConfigProblem } from './problem.js';
import type { ProcessSpec } from './process.js';

/** A value taken from one environment variable, parsed by the type of its key. */
export interface EnvSetting {
  readonly key: KeyNode;
  readonly value: unknown;
  /** The variable read when it is not the key's own: its old name. */
  readonly origin?: string;
}

export interface EnvReadResult {
  /** Settings ordered parents first, so a leaf variable wins over an object variable that also sets it. */
  readonly settings: EnvSetting[];
  readonly problems: ConfigProblem[];
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** JSON for lists, maps and objects; the leaf's own type for scalars. */
function parseValue(key: KeyNode, text: string): { ok: true; value: unknown } | { ok: false; rule: 'json' | 'type'; detail: string } {
  const n = node(key.schema);
  if (isObjectSchema(key.schema) || n.type === 'array' || n.type === 'object') {
    try {
      return { ok: true, value: JSON.parse(text) };
    } catch {
      const want = n.type === 'array' ? 'a JSON list such as ["a","b"] or [0.5,0.9]' : 'a JSON object such as {"key":"value"}';
      return { ok: false, rule: 'json', detail: `value ${showValue(text)} is not valid JSON: want ${want}` };
    }
  }
  if (n.type === 'boolean') {
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return { ok: true, value: true };
    if (lower === 'false' || lower === '0') return { ok: true, value: false };
    return { ok: false, rule: 'type', detail: `value ${showValue(text)} is not a boolean (true, false, 1, 0)` };
  }
  if (n.type === 'integer' || n.type === 'number') {
    if (!NUMBER.test(text.trim())) {
      return { ok: false, rule: 'type', detail: `value ${showValue(text)} is not a number (${n['x-spec-type'] ?? n.type})` };
    }
    return { ok: true, value: Number(text.trim()) };
  }
  return { ok: true, value: text };
}

/** Keys that had a variable of their own before they were keys (`x-old-env`), read until the next release. */
export function oldEnvNames(spec: ProcessSpec): { key: KeyNode; old: string }[] {
  return keyNodes(spec).flatMap((key) => {
    const old = node(key.schema)['x-old-env'];
    return old === undefined ? [] : [{ key, old }];
  });
}

/** What to tell the user when old variable names were read: one line each, naming the new one. */
export function oldEnvNotices(spec: ProcessSpec, env: Readonly<Record<string, string | undefined>>): string[] {
  return oldEnvNames(spec).filter(({ old }) => env[old] !== undefined).map(({ key, old }) => (env[key.env] === undefined
    ? `${old} is read as ${key.env} (${key.path}) until the next release: rename it`
    : `${old} is ignored: ${key.env} (${key.path}) is set; remove ${old}`));
}

/**
 * Reads every variable under the process prefix (and the old names of keys, see oldEnvNames). Each must name a key of the
 * tree (leaf or object); anything else is a problem that names the nearest key.
 */
export function readEnv(spec: ProcessSpec, env: Readonly<Record<string, string | undefined>>): EnvReadResult {
  const byEnv = new Map(keyNodes(spec).map((k) => [k.env, k]));
  const settings: EnvSetting[] = [];
  const problems: ConfigProblem[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith(spec.envPrefix)) continue;
    const text = env[name];
    if (text === undefined) continue;
    const key = byEnv.get(name);
    if (key === undefined) {
      const hint = nearest(name, byEnv.keys());
      const hintKey = hint === undefined ? undefined : byEnv.get(hint);
      problems.push(problem(
        { path: '(env)', env: name, rule: 'unknown-env', value: text },
        `unknown variable under ${spec.envPrefix} (value ${showValue(text)}); did you mean ${hint} (${hintKey?.path})?`,
      ));
      continue;
    }
    const parsed = parseValue(key, text);
    if (!parsed.ok) {
      problems.push(problem({ path: key.path, env: key.env, rule: parsed.rule, value: text, origin: key.env }, parsed.detail));
      continue;
    }
    settings.push({ key, value: parsed.value });
  }
  for (const { key, old } of oldEnvNames(spec)) {
    const text = env[old];
    if (text === undefined || env[key.env] !== undefined) continue;
    const parsed = parseValue(key, text);
    if (!parsed.ok) {
      problems.push(problem({ path: key.path, env: key.env, rule: parsed.rule, value: text, origin: old }, parsed.detail));
      continue;
    }
    settings.push({ key, value: parsed.value, origin: old });
  }
  settings.sort((a, b) => a.key.segments.length - b.key.segments.length);
  return { settings, problems };
}
