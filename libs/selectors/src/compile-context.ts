import { fail } from './json-shape.js';
import { LABEL_MATCHER_LIMITS } from './limits.js';

/** State of one compilation: counts nodes against LABEL_MATCHER_LIMITS.maxNodes. */
export class CompileContext {
  private nodes = 0;

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
}
