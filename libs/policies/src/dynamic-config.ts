import { parseProto3Number } from './schema/fields.js';
import { isJsonObject, memberPath } from './path.js';
import type { PolicyProblem } from './problems.js';
import type { PublishedComponent } from './published.js';

/**
 * The dynamic configuration of a policy: one JSON object whose members are named by its
 * components (`config_key` of a variable, `dry_run_config_key` of a load scheduler,
 * `pass_through_label_values_config_key` of a sampler, `manual_mode_config_key` of a gradient
 * controller). A key is a member name, or a dotted path into nested objects (`ramp.dry_run`).
 * Changing it changes the running policy without publishing it again: a variable's value,
 * one component's configuration, or what the circuit reads.
 */
export type DynamicConfig = Readonly<Record<string, unknown>>;

export type DynamicValueType = 'number' | 'boolean' | 'string_list';

/** Where a key's value goes. */
export type DynamicTarget =
  /** The value of a variable component (by its output signal). */
  | { variable: string }
  /** A member of one published component (by component id; `field` is the path in its JSON). */
  | { component_id: string; field: readonly string[] }
  /** Read by the circuit at each tick (TickInputs.dynamic). */
  | { circuit: true };

export interface DynamicConfigKey {
  key: string;
  type: DynamicValueType;
  /** JSON path of the member naming the key, e.g. `spec.circuit.components[0].variable.config_key`. */
  path: string;
  target: DynamicTarget;
}

const TYPE_TEXT: Record<DynamicValueType, string> = {
  number: 'a number (or a proto3 JSON number string)',
  boolean: 'a boolean',
  string_list: 'a list of strings',
};

/** The value at `key` (a member, else a dotted path), or undefined. */
export function lookupKey(doc: DynamicConfig, key: string): unknown {
  if (Object.hasOwn(doc, key)) return doc[key];
  if (!key.includes('.')) return undefined;
  let cur: unknown = doc;
  for (const segment of key.split('.')) {
    if (!isJsonObject(cur) || !Object.hasOwn(cur, segment)) return undefined;
    cur = cur[segment];
  }
  return cur;
}

function valueOf(value: unknown, type: DynamicValueType): { value: unknown } | { error: string } {
  if (type === 'number') {
    const n = parseProto3Number(value, 'double', false);
    return 'error' in n ? { error: n.error } : n;
  }
  if (type === 'boolean') return typeof value === 'boolean' ? { value } : { error: `want ${TYPE_TEXT.boolean}, got ${JSON.stringify(value)}` };
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return { value: [...value] };
  return { error: `want ${TYPE_TEXT.string_list}, got ${JSON.stringify(value)?.slice(0, 60)}` };
}

/**
 * Checks a dynamic configuration against the keys a policy's components name: every member must
 * be one of them (or lead to a dotted one), and each key's value must be of its type. Problems
 * name the member (`dynamic_config.<key>`). Answers the values by key, typed, when there is none.
 */
export function checkDynamicConfig(doc: unknown, keys: readonly DynamicConfigKey[], root = 'dynamic_config'): { problems: PolicyProblem[]; values: Map<string, unknown> } {
  const problems: PolicyProblem[] = [];
  const values = new Map<string, unknown>();
  if (!isJsonObject(doc)) return { problems: [{ path: root, message: 'the dynamic configuration must be a JSON object' }], values };
  const known = [...new Set(keys.map((k) => k.key))].sort();
  for (const member of Object.keys(doc)) {
    if (known.includes(member) || known.some((k) => k.startsWith(`${member}.`))) continue;
    problems.push({
      path: memberPath(root, member),
      message: known.length === 0
        ? 'unknown key: no component of this policy reads dynamic configuration'
        : `unknown key: no component of this policy names it; the keys are ${known.join(', ')}`,
    });
  }
  for (const k of keys) {
    const raw = lookupKey(doc, k.key);
    if (raw === undefined || values.has(k.key)) continue;
    const v = valueOf(raw, k.type);
    const at = Object.hasOwn(doc, k.key) ? memberPath(root, k.key) : k.key.split('.').reduce(memberPath, root);
    if ('error' in v) problems.push({ path: at, message: `${v.error} (read by ${k.path})` });
    else values.set(k.key, v.value);
  }
  return { problems, values };
}

/** A published component with the dynamic values that target it set in a copy (itself when none does). */
export function withDynamicValues(component: PublishedComponent, keys: readonly DynamicConfigKey[], values: ReadonlyMap<string, unknown>): PublishedComponent {
  let out: PublishedComponent | undefined;
  for (const k of keys) {
    if (!('component_id' in k.target) || k.target.component_id !== component.component_id || !values.has(k.key)) continue;
    out ??= structuredClone(component);
    let cur = out as unknown as Record<string, unknown>;
    const field = k.target.field;
    for (const segment of field.slice(0, -1)) {
      if (!isJsonObject(cur[segment])) cur[segment] = {};
      cur = cur[segment] as Record<string, unknown>;
    }
    cur[field[field.length - 1]] = values.get(k.key);
  }
  return out ?? component;
}
