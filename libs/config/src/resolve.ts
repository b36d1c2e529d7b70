import { crossFieldProblems, requiredKeyProblems } from './checks.js';
import { applyDefaults, isPlainObject, setOwn } from './defaults.js';
import { readEnv } from './env.js';
import type { ConfigFile } from './file.js';
import { isEmptyRequiredFormat, problemFromAjv, type OriginOf } from './ajv-problems.js';
import { ConfigError, type ConfigProblem } from './problem.js';
import { PROCESSES, type ConfigByProcess, type ProcessName } from './process.js';
import { validatorFor } from './validator.js';

export interface ResolveOptions<P extends ProcessName> {
  process: P;
  /** Environment variables; only those under the process prefix are read. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The parsed configuration file, if any. */
  file?: ConfigFile;
  /** Problems found before resolving (reading the file, the command line); reported together. */
  problems?: readonly ConfigProblem[];
  /** Key paths that must be set; defaults to the process's own list (see PROCESSES). */
  requireKeys?: readonly string[];
}

/** Records `path` and every key path inside a JSON object value as set by `env`. */
function recordOrigins(origins: Map<string, string>, path: string, value: unknown, env: string): void {
  origins.set(path, env);
  if (isPlainObject(value)) for (const [k, v] of Object.entries(value)) recordOrigins(origins, `${path}.${k}`, v, env);
}

/** Sets a value at a key path; an object value merges into the object already there. */
function setAt(tree: Record<string, unknown>, segments: readonly string[], value: unknown): void {
  let cursor = tree;
  for (const s of segments.slice(0, -1)) {
    if (!isPlainObject(cursor[s])) cursor[s] = {};
    cursor = cursor[s] as Record<string, unknown>;
  }
  const last = segments[segments.length - 1];
  cursor[last] = mergeInto(cursor[last], value);
}

function mergeInto(existing: unknown, value: unknown): unknown {
  if (!isPlainObject(existing) || !isPlainObject(value)) return value;
  const out: Record<string, unknown> = { ...existing };
  for (const [k, v] of Object.entries(value)) setOwn(out, k, mergeInto(Object.hasOwn(out, k) ? out[k] : undefined, v));
  return out;
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const id = `${p.path}\u0000${p.rule}\u0000${p.message}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * The effective configuration: environment over file over defaults, fully
 * validated. Throws a ConfigError listing every problem found.
 */
export function resolveConfig<P extends ProcessName>(opts: ResolveOptions<P>): ConfigByProcess[P] {
  const spec = PROCESSES[opts.process];
  const problems: ConfigProblem[] = [...(opts.problems ?? [])];
  const tree: Record<string, unknown> = structuredClone(opts.file?.data ?? {});

  const fromEnv = readEnv(spec, opts.env ?? {});
  problems.push(...fromEnv.problems);
  const envOrigins = new Map<string, string>();
  for (const { key, value, origin } of fromEnv.settings) {
    setAt(tree, key.segments, value);
    recordOrigins(envOrigins, key.path, value, origin ?? key.env);
  }
  const originOf: OriginOf = (segments) => {
    for (let i = segments.length; i > 0; i--) {
      const prefix = segments.slice(0, i);
      const env = envOrigins.get(prefix.join('.'));
      if (env !== undefined) return env;
      const pos = opts.file?.position(prefix);
      if (pos !== undefined) return pos;
    }
    return undefined;
  };

  const config = applyDefaults(spec.schema, tree) as Record<string, unknown>;
  const validate = validatorFor(spec.schema);
  if (!validate(config)) {
    for (const error of validate.errors ?? []) {
      if (isEmptyRequiredFormat(spec.schema, error)) continue;
      const p = problemFromAjv(spec, error, originOf);
      if (p !== undefined) problems.push(p);
    }
  }
  problems.push(...crossFieldProblems(spec, config, originOf));
  problems.push(...requiredKeyProblems(spec, config, opts.requireKeys ?? spec.requiredKeys));
  if (problems.length > 0) throw new ConfigError(spec.name, dedupe(problems));
  return config as unknown as ConfigByProcess[P];
}
