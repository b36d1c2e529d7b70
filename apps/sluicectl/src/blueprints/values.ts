// Reading and checking a blueprint's values file, and building the Policy resource from it.
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Document, isMap, isScalar, parse, type YAMLMap } from 'yaml';
import { CliError } from '../errors.js';
import type { Blueprint, JsonSchema, PolicyResource } from './blueprint.js';
import { PATTERN_RULES } from './schema.js';

const validators = new WeakMap<Blueprint, ValidateFunction>();

function validator(b: Blueprint): ValidateFunction {
  let v = validators.get(b);
  if (v === undefined) {
    v = new Ajv({ allErrors: true, strict: true, useDefaults: true, verbose: true }).compile(b.schema);
    validators.set(b, v);
  }
  return v;
}

/** `/a/0/b` as `a[0].b`. */
function pathOf(pointer: string, child?: string): string {
  const segments = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) segments.push(child);
  return segments.reduce((p, s) => (/^\d+$/.test(s) ? `${p}[${s}]` : p === '' ? s : `${p}.${s}`), '') || '(the values)';
}

function problemOf(e: ErrorObject): string {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required': return `${pathOf(e.instancePath, String(params.missingProperty))}: is required`;
    case 'additionalProperties': {
      const known = Object.keys(((e.parentSchema ?? {}) as JsonSchema & { properties?: object }).properties ?? {});
      return `${pathOf(e.instancePath, String(params.additionalProperty))}: is not a field here (known: ${known.join(', ')})`;
    }
    case 'const': return `${pathOf(e.instancePath)}: must be ${JSON.stringify(params.allowedValue)}`;
    case 'pattern': {
      const rule = PATTERN_RULES[String(params.pattern)];
      return `${pathOf(e.instancePath)}: ${JSON.stringify(e.data)} is not ${rule ?? `matching ${String(params.pattern)}`}`;
    }
    default: return `${pathOf(e.instancePath)}: ${e.message ?? e.keyword}`;
  }
}

/**
 * The problems of `values` against the blueprint's schema, each naming the field's path; when
 * there is none, `values` has had its defaults filled in.
 */
export function valuesProblems(b: Blueprint, values: unknown): string[] {
  const validate = validator(b);
  if (validate(values)) return [];
  return [...new Set((validate.errors ?? []).map(problemOf))];
}

/** The values of a YAML or JSON file (a failure, exit 1, when it cannot be read or parsed). */
export function readValuesFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read the values file ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  try {
    return parse(text) as unknown;
  } catch (err) {
    throw new CliError(`${path}: not YAML or JSON: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
}

/** The Policy resource of the blueprint for these values, or a CliError listing every problem of the values (`source` names them). */
export function generatePolicy(b: Blueprint, values: unknown, source: string): PolicyResource {
  const copy = structuredClone(values);
  const problems = valuesProblems(b, copy);
  if (problems.length > 0) throw new CliError(`${source}: bad values for blueprint ${b.name}: ${problems.join('; ')}`);
  const v = copy as Record<string, unknown> & { policy_name: string };
  return { apiVersion: 'fluxninja.com/v1alpha1', kind: 'Policy', metadata: { name: v.policy_name }, spec: b.spec(v) };
}

/** The blueprint's example values as YAML, each field preceded by its description from the schema. */
export function exampleValuesYaml(b: Blueprint): string {
  const doc = new Document(b.example);
  const annotate = (node: unknown, schema: JsonSchema | undefined): void => {
    if (isMap(node)) {
      const props = (schema?.properties ?? {}) as Record<string, JsonSchema>;
      for (const pair of (node as YAMLMap).items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        const s = props[key];
        if (s !== undefined && isScalar(pair.key) && typeof s.description === 'string') {
          pair.key.commentBefore = ` ${s.description}${s.default !== undefined && typeof s.default !== 'object' ? ` Default: ${String(s.default)}.` : ''}`;
        }
        annotate(pair.value, s);
      }
    } else if (node !== null && typeof node === 'object' && 'items' in node && Array.isArray((node as { items: unknown[] }).items)) {
      for (const item of (node as { items: unknown[] }).items) annotate(item, schema?.items as JsonSchema | undefined);
    }
  };
  annotate(doc.contents, b.schema);
  return `# Values of the ${b.name} blueprint: sluicectl blueprints generate ${b.name} --values-file FILE --output-dir DIR\n${doc.toString({ lineWidth: 0 })}`;
}
