import type { TSchema } from '@sinclair/typebox';
import type { ProcessSpec } from './process.js';

/** One key of a process's tree: an object (has children) or a leaf (scalar, list or map). */
export interface KeyNode {
  /** Dotted key path such as `server.listener.addr`. */
  readonly path: string;
  readonly segments: readonly string[];
  /** Environment variable that sets this key, such as `SLUICE_AGENT_SERVER_LISTENER_ADDR`. */
  readonly env: string;
  readonly schema: TSchema;
  readonly leaf: boolean;
}

export interface SchemaNode {
  type?: string;
  properties?: Record<string, TSchema>;
  items?: TSchema;
  patternProperties?: Record<string, TSchema>;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  description?: string;
  'x-spec-type'?: string;
  'x-secret'?: boolean;
  'x-required'?: boolean;
  'x-increasing'?: boolean;
  /** The variable that set this key before it was one, read until the next release. */
  'x-old-env'?: string;
  /** Accepted with no effect today, and why (on a leaf or on an object: every key below it). */
  'x-no-effect'?: string;
}

export function node(schema: TSchema): SchemaNode {
  return schema as unknown as SchemaNode;
}

export function isObjectSchema(schema: TSchema): boolean {
  return node(schema).properties !== undefined;
}

/** `SLUICE_AGENT_` + `server.listener.addr` → `SLUICE_AGENT_SERVER_LISTENER_ADDR`. */
export function envNameOf(prefix: string, path: string): string {
  return prefix + path.toUpperCase().replace(/\./g, '_');
}

const cache = new WeakMap<ProcessSpec, readonly KeyNode[]>();

/** Every key of the process's tree (objects and leaves), parents before children. */
export function keyNodes(spec: ProcessSpec): readonly KeyNode[] {
  let nodes = cache.get(spec);
  if (nodes === undefined) {
    const out: KeyNode[] = [];
    const walk = (schema: TSchema, segments: string[]) => {
      for (const [name, child] of Object.entries(node(schema).properties ?? {})) {
        const childSegments = [...segments, name];
        const path = childSegments.join('.');
        const leaf = !isObjectSchema(child);
        out.push({ path, segments: childSegments, env: envNameOf(spec.envPrefix, path), schema: child, leaf });
        if (!leaf) walk(child, childSegments);
      }
    };
    walk(spec.schema, []);
    nodes = out;
    cache.set(spec, nodes);
  }
  return nodes;
}

export function leafNodes(spec: ProcessSpec): KeyNode[] {
  return keyNodes(spec).filter((n) => n.leaf);
}

export function keyByPath(spec: ProcessSpec, path: string): KeyNode | undefined {
  return keyNodes(spec).find((n) => n.path === path);
}

export function keyByEnv(spec: ProcessSpec, env: string): KeyNode | undefined {
  return keyNodes(spec).find((n) => n.env === env);
}

/**
 * Where a value inside the tree sits, for messages: `log.writers[0].file`, and
 * the env variable of the deepest key that holds it (`SLUICE_AGENT_LOG_WRITERS`).
 */
export function locate(spec: ProcessSpec, segments: readonly string[]): { path: string; env: string } {
  let schema: TSchema | undefined = spec.schema;
  let path = '';
  let keyPath = '';
  let inKeys = true;
  for (const segment of segments) {
    const n: SchemaNode | undefined = schema === undefined ? undefined : node(schema);
    if (n?.items !== undefined && /^\d+$/.test(segment)) {
      path += `[${segment}]`;
      schema = n.items;
      inKeys = false;
      continue;
    }
    path += path === '' ? segment : `.${segment}`;
    if (n?.properties !== undefined) {
      schema = n.properties[segment];
      if (inKeys) keyPath = path;
    } else {
      schema = n?.patternProperties === undefined ? undefined : Object.values(n.patternProperties)[0];
      inKeys = false;
    }
    if (schema === undefined) inKeys = false;
  }
  const envPath = keyPath === '' ? path.replace(/\[\d+\]/g, '') : keyPath;
  return { path, env: envNameOf(spec.envPrefix, envPath) };
}

/** The schema of the value at `segments` (array indices and map keys included), if any. */
export function schemaAt(root: TSchema, segments: readonly string[]): TSchema | undefined {
  let schema: TSchema | undefined = root;
  for (const segment of segments) {
    if (schema === undefined) return undefined;
    const n = node(schema);
    if (n.properties !== undefined) schema = n.properties[segment];
    else if (n.items !== undefined) schema = n.items;
    else if (n.patternProperties !== undefined) schema = Object.values(n.patternProperties)[0];
    else return undefined;
  }
  return schema;
}

/** Why the key at `path` has no effect (its own marker or an enclosing object's), or undefined when it takes effect. */
export function noEffectOf(spec: ProcessSpec, path: string): string | undefined {
  let schema: TSchema | undefined = spec.schema;
  let reason: string | undefined;
  for (const segment of path.split('.')) {
    schema = schema === undefined ? undefined : node(schema).properties?.[segment];
    if (schema === undefined) return reason;
    reason = node(schema)['x-no-effect'] ?? reason;
  }
  return reason;
}
