import type { CompileContext } from './compile-context.js';
import { memberPath } from './json-path.js';
import { expectObject, fail, jsonTypeName } from './json-shape.js';
import type { LabelPredicate } from './label-matcher.js';
import { labelEquals } from './predicates.js';

/**
 * `match_labels`: an object of label name to value. Each pair requires the
 * label to be present and equal to the value (an empty value matches only a
 * present, empty label). Returns one predicate per pair.
 */
export function compileMatchLabels(json: unknown, path: string, ctx: CompileContext): LabelPredicate[] {
  const obj = expectObject(json, path, 'match_labels');
  const out: LabelPredicate[] = [];
  for (const name of Object.keys(obj)) {
    const at = memberPath(path, name);
    ctx.countNode(at);
    if (name === '') throw fail(at, 'match_labels label name must not be empty');
    const value = obj[name];
    if (typeof value !== 'string') throw fail(at, `match_labels value must be a string, got ${jsonTypeName(value)}`);
    out.push(labelEquals(name, value));
  }
  return out;
}
