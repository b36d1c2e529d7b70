import type { TSchema } from '@sinclair/typebox';
import { SchemaValidator, pointerSegments, type ErrorObject, type ValidateFunction } from '@sluice/schema';
import { pathOfSegments } from '../path.js';
import type { ContractProblem } from './common.js';
import { PUBLISHED_KIND_BY_NAME, PUBLISHED_DECISION_KINDS, PUBLISHED_KIND_NAMES, type PublishedComponent, type PublishedDecision } from './kinds.js';

/** The result of checking a published value: the value, or why it is refused (every problem with its JSON path). */
export type Checked<T> = { ok: true; value: T } | { ok: false; error: string; problems: ContractProblem[] };

const schemas = new SchemaValidator({ verbose: false });

/** The one compiled validator of `schema` (compiled on first use, then kept). */
function validatorOf(schema: TSchema): ValidateFunction {
  return schemas.validator(schema);
}

/**
 * Compile the validators of every published kind now (the controller's publisher and the agent's
 * enforcement call it when they start), so that the first configuration received or published is
 * not held up by their compilation.
 */
export function compilePublishedValidators(): void {
  for (const k of PUBLISHED_KIND_BY_NAME.values()) {
    validatorOf(k.component);
    if (k.decision !== undefined) validatorOf(k.decision);
  }
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v === 'object' ? 'object' : typeof v;
}

const ARTICLE: Readonly<Record<string, string>> = {
  object: 'an object', array: 'a list', string: 'a string', number: 'a number', integer: 'an integer', boolean: 'a boolean', null: 'null',
};

function show(v: unknown): string {
  const text = JSON.stringify(v);
  if (text === undefined) return String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function join(root: string, path: string): string {
  if (root === '') return path;
  if (path === '') return root;
  return path.startsWith('[') ? `${root}${path}` : `${root}.${path}`;
}

function problemOf(e: ErrorObject, root: string): ContractProblem | undefined {
  const at = pathOfSegments(root, pointerSegments(e.instancePath));
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path: join(at, String(p.missingProperty)), message: 'is required' };
    case 'type':
      return { path: at, message: `must be ${ARTICLE[String(p.type)] ?? String(p.type)}, got ${typeName(e.data)}` };
    case 'minLength':
      return { path: at, message: p.limit === 1 ? 'must not be empty' : `${e.message ?? 'is too short'}` };
    case 'const':
      return { path: at, message: `must be ${show(p.allowedValue)}, got ${show(e.data)}` };
    case 'anyOf':
      return { path: at, message: `${show(e.data)} has none of the allowed shapes` };
    case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
      return { path: at, message: `${e.message ?? 'is out of bounds'}, got ${show(e.data)}` };
    default:
      return { path: at, message: `${e.message ?? 'is invalid'}${e.data === undefined ? '' : `, got ${show(e.data)}`}` };
  }
}

/**
 * Every problem of `value` against `schema`, each with its JSON path under `root` (`parameters.interval_ms`,
 * `selectors[0].control_point`). The shared check of the published contract: the controller runs it
 * before publishing, the agents on receipt, the local limiters file on its entries.
 */
export function contractProblems(schema: TSchema, value: unknown, root = ''): ContractProblem[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  const errors = (validate.errors ?? []).map((e) => ({ ...e, data: dataAt(value, e.instancePath) }));
  // A union's failed branches say less than the union's own error: keep the latter alone.
  const unions = errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath);
  const seen = new Set<string>();
  const problems: ContractProblem[] = [];
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && unions.some((u) => e.instancePath.startsWith(u) && e.schemaPath.includes('anyOf'))) continue;
    const problem = problemOf(e, root);
    if (problem === undefined) continue;
    const key = `${problem.path}\n${problem.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      problems.push(problem);
    }
  }
  return problems;
}

function dataAt(value: unknown, pointer: string): unknown {
  let v = value;
  for (const s of pointerSegments(pointer)) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[s];
  }
  return v;
}

function describe(problems: readonly ContractProblem[]): string {
  return problems.slice(0, 5).map((p) => (p.path === '' ? p.message : `${p.path}: ${p.message}`)).join('; ');
}

function refused<T>(problems: ContractProblem[]): Checked<T> {
  return { ok: false, error: describe(problems), problems };
}

function kindProblem(value: unknown, kinds: readonly string[]): ContractProblem | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { path: '', message: `must be a JSON object, got ${typeName(value)}` };
  const kind = (value as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !kinds.includes(kind)) return { path: 'kind', message: `must be one of ${kinds.join(', ')}, got ${show(kind)}` };
  return undefined;
}

/** Check a published component against its kind's schema (and the checks across its members). */
export function checkPublishedComponent(value: unknown): Checked<PublishedComponent> {
  const bad = kindProblem(value, PUBLISHED_KIND_NAMES);
  if (bad !== undefined) return refused([bad]);
  const contract = PUBLISHED_KIND_BY_NAME.get((value as { kind: string }).kind)!;
  const problems = contractProblems(contract.component, value);
  if (problems.length > 0) return refused(problems);
  const across = contract.check?.(value as never);
  if (across !== undefined) return refused([across]);
  return { ok: true, value: value as PublishedComponent };
}

/** Check a published decision against its kind's schema. */
export function checkPublishedDecision(value: unknown): Checked<PublishedDecision> {
  const bad = kindProblem(value, PUBLISHED_DECISION_KINDS);
  if (bad !== undefined) return refused([bad]);
  const schema = PUBLISHED_KIND_BY_NAME.get((value as { kind: string }).kind)!.decision!;
  const problems = contractProblems(schema, value);
  return problems.length > 0 ? refused(problems) : { ok: true, value: value as PublishedDecision };
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; problems: ContractProblem[] } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, problems: [{ path: '', message: `not JSON: ${err instanceof Error ? err.message : String(err)}` }] };
  }
}

/** A published component from its etcd value. */
export function parsePublishedComponent(text: string): Checked<PublishedComponent> {
  const json = parseJson(text);
  return json.ok ? checkPublishedComponent(json.value) : refused(json.problems);
}

/** A published decision from its etcd value. */
export function parsePublishedDecision(text: string): Checked<PublishedDecision> {
  const json = parseJson(text);
  return json.ok ? checkPublishedDecision(json.value) : refused(json.problems);
}
