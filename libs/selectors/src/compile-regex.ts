import { RE2JS } from 're2js';
import type { CompileContext } from './compile-context.js';
import { fail } from './json-shape.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';
import type { RegexTester } from './predicates.js';
import { estimateRegexProgramSize } from './regex-size-estimate.js';

/**
 * A regex whose estimated program exceeds this many times the filter's budget
 * is refused before compiling: re2js would otherwise expand every counted
 * repetition first (`(?:[a-z]{800}){1000}` costs it ~0.4 s and ~100 MB) only
 * for the budget check to refuse it afterwards. The slack covers the
 * estimate erring high (re2js turns `a|b` into one class, for instance).
 */
const ESTIMATE_SLACK = 4;

/**
 * Compile a `label_matches.regex` with re2js: Go RE2 syntax (no look-around,
 * no backreferences), linear-time matching. Matching is an unanchored search;
 * `^...$` anchor explicitly. At match time only `RE2JS#test` is called: it
 * skips the Matcher object and capture groups, so the per-call garbage is
 * re2js's small input wrapper. The limits are checked here: source length
 * and an estimate of the program size before compiling, the program size
 * (against the filter's budget) after.
 */
export function compileRegex(source: string, path: string, ctx: CompileContext): RegexTester {
  if (source.length > LABEL_MATCHER_LIMITS.maxRegexLength) {
    throw fail(path, `regex is ${source.length} characters long; at most ${LABEL_MATCHER_LIMITS.maxRegexLength} are allowed`);
  }
  const estimate = estimateRegexProgramSize(source);
  if (estimate > ESTIMATE_SLACK * LABEL_MATCHER_LIMITS.maxRegexProgramSize) {
    throw fail(
      path,
      `regex would compile to about ${estimate} RE2 instructions; the regexes of one label filter may total at most ` +
        `${LABEL_MATCHER_LIMITS.maxRegexProgramSize} (bounded repetitions such as .{1000} cost one instruction per repeat)`,
    );
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
