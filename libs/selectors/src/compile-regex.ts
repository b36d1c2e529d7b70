import { RE2JS } from 're2js';
import type { CompileContext } from './compile-context.js';
import { fail } from './json-shape.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';
import type { RegexTester } from './predicates.js';

/**
 * Compile a `label_matches.regex` with re2js: Go RE2 syntax (no look-around,
 * no backreferences), linear-time matching. Matching is an unanchored search;
 * `^...$` anchor explicitly. At match time only `RE2JS#test` is called: it
 * skips the Matcher object and capture groups, so the per-call garbage is
 * re2js's small input wrapper. The limits are checked here: source length
 * before compiling, program size (against the filter's budget) after.
 */
export function compileRegex(source: string, path: string, ctx: CompileContext): RegexTester {
  if (source.length > LABEL_MATCHER_LIMITS.maxRegexLength) {
    throw fail(path, `regex is ${source.length} characters long; at most ${LABEL_MATCHER_LIMITS.maxRegexLength} are allowed`);
  }
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw fail(path, `regex does not compile (Go RE2 syntax): ${reason}`);
  }
  ctx.addRegexProgram(regex.programSize(), path);
  return regex;
}
