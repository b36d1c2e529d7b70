/**
 * Flow labels: a plain object of label name to value. It may come from
 * untrusted input, so only own properties count; a label named `constructor`
 * or `__proto__` is a label like any other. A property whose value is not a
 * string does not count as a label.
 */
export type FlowLabels = Readonly<Record<string, string>>;

/** A compiled label filter. `matches` allocates nothing of its own. */
export interface LabelMatcher {
  matches(labels: FlowLabels): boolean;
}

/** One compiled condition on the labels. */
export type LabelPredicate = (labels: FlowLabels) => boolean;
