import { RE2JS } from 're2js';
import { fail } from './json-shape.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';
import type { RegexTester } from './predicates.js';

/**
 * Compile a `label_matches.regex` with re2js: Go RE2 syntax (no look-around,
 * no backreferences), linear-time matching. Matching is an unanchored search;
 * `^...$` anchor explicitly. At match time only `RE2JS#test` is called: it
 * skips the Matcher object and capture groups, so the per-call garbage is
 * re2js's small input wrapper.
 */
export function compileRegex(source: string, path: string): RegexTester {
  if (source.length > LABEL_MATCHER_LIMITS.maxRegexLength) {
    throw fail(path, `regex is ${source.length} characters long; at most ${LABEL_MATCHER_LIMITS.maxRegexLength} are allowed`);
  }
  try {
    return RE2JS.compile(source);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw fail(path, `regex does not compile (Go RE2 syntax): ${reason}`);
  }
}
