import type { CompileContext } from './compile-context.js';
import { indexPath, memberPath } from './json-path.js';
import { checkedKeys, expectObject, fail, jsonTypeName, member, requiredName } from './json-shape.js';
import type { LabelPredicate } from './label-matcher.js';
import { canonicalOperator, REQUIREMENT_OPERATORS } from './operators.js';
import { labelAbsent, labelExists, labelIn, labelNotIn } from './predicates.js';

const REQUIREMENT_MEMBERS: ReadonlySet<string> = new Set(['key', 'operator', 'values']);

/** `values` of a requirement: absent, or an array of strings. */
function compileValues(json: unknown, path: string, ctx: CompileContext): string[] {
  if (json === undefined) return [];
  if (!Array.isArray(json)) throw fail(path, `values must be an array of strings, got ${jsonTypeName(json)}`);
  const values: string[] = [];
  for (let i = 0; i < json.length; i++) {
    const at = indexPath(path, i);
    ctx.countNode(at);
    const value: unknown = json[i];
    if (typeof value !== 'string') throw fail(at, `values elements must be strings, got ${jsonTypeName(value)}`);
    values.push(value);
  }
  return values;
}

/**
 * One element of `match_expressions`: `{key, operator, values}`.
 * In: present and equal to one of the values; NotIn: absent or different
 * from all; Exists; DoesNotExist (also spelled DoesNotExists).
 */
export function compileRequirement(json: unknown, path: string, ctx: CompileContext): LabelPredicate {
  ctx.countNode(path);
  const obj = expectObject(json, path, 'requirement');
  checkedKeys(obj, REQUIREMENT_MEMBERS, path, 'requirement');
  const key = requiredName(obj, 'key', path, 'key');

  const operatorPath = memberPath(path, 'operator');
  const rawOperator = member(obj, 'operator');
  if (rawOperator === undefined) {
    throw fail(operatorPath, `operator is required; allowed: ${REQUIREMENT_OPERATORS.join(', ')}`);
  }
  if (typeof rawOperator !== 'string') {
    throw fail(operatorPath, `operator must be a string, got ${jsonTypeName(rawOperator)}; allowed: ${REQUIREMENT_OPERATORS.join(', ')}`);
  }
  const operator = canonicalOperator(rawOperator);
  if (operator === undefined) {
    throw fail(operatorPath, `unknown operator ${JSON.stringify(rawOperator)}; allowed: ${REQUIREMENT_OPERATORS.join(', ')}`);
  }

  const valuesPath = memberPath(path, 'values');
  const values = compileValues(member(obj, 'values'), valuesPath, ctx);
  switch (operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) throw fail(valuesPath, `values must be non-empty for operator ${operator}`);
      return operator === 'In' ? labelIn(key, values) : labelNotIn(key, values);
    case 'Exists':
    case 'DoesNotExist':
      if (values.length !== 0) throw fail(valuesPath, `values must be empty for operator ${rawOperator}`);
      return operator === 'Exists' ? labelExists(key) : labelAbsent(key);
  }
}
