import { CompileContext } from './compile-context.js';
import { compileExpression } from './compile-expression.js';
import { compileMatchExpressions } from './compile-match-expressions.js';
import { compileMatchLabels } from './compile-match-labels.js';
import { memberPath } from './json-path.js';
import { checkedKeys, fail, isJsonObject, jsonTypeName, member } from './json-shape.js';
import type { LabelMatcher, LabelPredicate } from './label-matcher.js';
import { allOf } from './predicates.js';

const FILTER_MEMBERS: ReadonlySet<string> = new Set(['match_labels', 'match_expressions', 'expression']);

/**
 * Validate and compile a label filter `{match_labels?, match_expressions?,
 * expression?}`. The three parts are ANDed; `{}` matches everything. A
 * member set to `undefined` counts as absent; `null` is a type error.
 *
 * `path` prefixes the JSON path reported in errors (e.g. `label_matcher`
 * when the filter is a member of a larger body). Every rule broken throws
 * InvalidArgumentError whose `field` is the JSON path of the offending
 * field, such as `match_expressions[2].values` or
 * `expression.all.of[0].label_matches.regex`.
 */
export function compileLabelMatcher(json: unknown, path = ''): LabelMatcher {
  if (!isJsonObject(json)) throw fail(path, `label filter must be an object, got ${jsonTypeName(json)}`);
  checkedKeys(json, FILTER_MEMBERS, path, 'label filter');
  const ctx = new CompileContext();
  const parts: LabelPredicate[] = [];

  const matchLabels = member(json, 'match_labels');
  if (matchLabels !== undefined) parts.push(...compileMatchLabels(matchLabels, memberPath(path, 'match_labels'), ctx));

  const matchExpressions = member(json, 'match_expressions');
  if (matchExpressions !== undefined) {
    parts.push(...compileMatchExpressions(matchExpressions, memberPath(path, 'match_expressions'), ctx));
  }

  const expression = member(json, 'expression');
  if (expression !== undefined) parts.push(compileExpression(expression, memberPath(path, 'expression'), 1, ctx));

  return { matches: allOf(parts) };
}
