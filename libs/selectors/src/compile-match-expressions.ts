import type { CompileContext } from './compile-context.js';
import { compileRequirement } from './compile-requirement.js';
import { indexPath } from './json-path.js';
import { fail, jsonTypeName } from './json-shape.js';
import type { LabelPredicate } from './label-matcher.js';

/** `match_expressions`: an array of requirements, combined with AND. */
export function compileMatchExpressions(json: unknown, path: string, ctx: CompileContext): LabelPredicate[] {
  if (!Array.isArray(json)) throw fail(path, `match_expressions must be an array of requirements, got ${jsonTypeName(json)}`);
  const out: LabelPredicate[] = [];
  for (let i = 0; i < json.length; i++) out.push(compileRequirement(json[i], indexPath(path, i), ctx));
  return out;
}
