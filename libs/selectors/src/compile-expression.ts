import type { CompileContext } from './compile-context.js';
import { compileLabelEquals, compileLabelExists, compileLabelMatches } from './compile-label-expressions.js';
import { indexPath, memberPath } from './json-path.js';
import { checkedKeys, expectObject, fail, jsonTypeName, member } from './json-shape.js';
import type { LabelPredicate } from './label-matcher.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';
import { allOf, anyOf, not } from './predicates.js';

const EXPRESSION_MEMBERS: ReadonlySet<string> = new Set(['all', 'any', 'not', 'label_equals', 'label_exists', 'label_matches']);
const LIST_MEMBERS: ReadonlySet<string> = new Set(['of']);

/**
 * `all: {of: [...]}` / `any: {of: [...]}`. `of` is required; an empty
 * `all.of` is true and an empty `any.of` is false (the usual identities).
 */
function compileList(kind: 'all' | 'any', json: unknown, path: string, depth: number, ctx: CompileContext): LabelPredicate {
  const obj = expectObject(json, path, kind);
  checkedKeys(obj, LIST_MEMBERS, path, kind);
  const ofPath = memberPath(path, 'of');
  const of = member(obj, 'of');
  if (of === undefined) throw fail(ofPath, `${kind}.of is required (an array of expressions)`);
  if (!Array.isArray(of)) throw fail(ofPath, `${kind}.of must be an array of expressions, got ${jsonTypeName(of)}`);
  const parts: LabelPredicate[] = [];
  for (let i = 0; i < of.length; i++) parts.push(compileExpression(of[i], indexPath(ofPath, i), depth + 1, ctx));
  return kind === 'all' ? allOf(parts) : anyOf(parts);
}

/**
 * An Expression: an object with exactly one of `all`, `any`, `not`,
 * `label_equals`, `label_exists`, `label_matches`. `depth` is its nesting
 * level (the top-level expression is 1); the depth limit is checked before
 * looking inside, so recursion never goes deeper than the limit however
 * deep the input nests.
 */
export function compileExpression(json: unknown, path: string, depth: number, ctx: CompileContext): LabelPredicate {
  if (depth > LABEL_MATCHER_LIMITS.maxDepth) {
    throw fail(path, `expressions nest deeper than ${LABEL_MATCHER_LIMITS.maxDepth} levels`);
  }
  ctx.countNode(path);
  const obj = expectObject(json, path, 'expression');
  const keys = checkedKeys(obj, EXPRESSION_MEMBERS, path, 'expression');
  if (keys.length !== 1) {
    const got = keys.length === 0 ? 'none' : `${keys.length} (${keys.join(', ')})`;
    throw fail(path, `expression must have exactly one of ${[...EXPRESSION_MEMBERS].join(', ')}; got ${got}`);
  }
  const kind = keys[0];
  const at = memberPath(path, kind);
  const value = obj[kind];
  switch (kind) {
    case 'all':
    case 'any':
      return compileList(kind, value, at, depth, ctx);
    case 'not':
      return not(compileExpression(value, at, depth + 1, ctx));
    case 'label_equals':
      return compileLabelEquals(value, at);
    case 'label_exists':
      return compileLabelExists(value, at);
    default:
      return compileLabelMatches(value, at, ctx);
  }
}
