import { fail } from './json-shape.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';

/**
 * State of one compilation: counts nodes against LABEL_MATCHER_LIMITS.maxNodes
 * and regex instructions against LABEL_MATCHER_LIMITS.maxRegexProgramSize.
 */
export class CompileContext {
  private nodes = 0;
  private regexProgramSize = 0;

  /** Count one more node found at `path`; refuse the filter past the limit. */
  countNode(path: string): void {
    this.nodes++;
    if (this.nodes > LABEL_MATCHER_LIMITS.maxNodes) {
      throw fail(
        path,
        `label filter has more than ${LABEL_MATCHER_LIMITS.maxNodes} nodes (expressions, requirements, values and match_labels entries)`,
      );
    }
  }

  /** Add a compiled regex of `size` RE2 instructions found at `path`; refuse past the budget. */
  addRegexProgram(size: number, path: string): void {
    this.regexProgramSize += size;
    if (this.regexProgramSize > LABEL_MATCHER_LIMITS.maxRegexProgramSize) {
      throw fail(
        path,
        `regex compiles to ${size} RE2 instructions; the regexes of one label filter may total at most ${LABEL_MATCHER_LIMITS.maxRegexProgramSize}` +
          ' (bounded repetitions such as .{1000} cost one instruction per repeat)',
      );
    }
  }
}
