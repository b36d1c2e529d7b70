/**
 * Bounds on a label filter. A filter that breaks one is refused with an
 * InvalidArgumentError before anything is compiled.
 *
 * - `maxDepth`: expression objects nest at most this deep (the top-level
 *   `expression` is level 1; each `not` and each `all.of[i]` / `any.of[i]`
 *   adds one level).
 * - `maxNodes`: expressions, requirements, requirement values and
 *   `match_labels` entries together.
 * - `maxRegexLength`: characters (UTF-16 code units) of one `label_matches.regex`.
 * - `maxRegexProgramSize`: RE2 instructions of all `label_matches` regexes of
 *   one filter together. Matching is linear in the label value but also in
 *   the program size when re2js falls back from its DFA to the NFA, so a
 *   handful of counted repetitions (`.{1000}` is 1000 instructions) would
 *   make every match slow; ordinary patterns take tens of instructions.
 */
export const LABEL_MATCHER_LIMITS = Object.freeze({
  maxDepth: 32,
  maxNodes: 10_000,
  maxRegexLength: 4096,
  maxRegexProgramSize: 5000,
} as const);

export type LabelMatcherLimits = typeof LABEL_MATCHER_LIMITS;
