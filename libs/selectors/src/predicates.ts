import type { FlowLabels, LabelPredicate } from './label-matcher.js';
import { labelValue } from './label-value.js';

/**
 * Predicate factories: everything is decided at compile time, so each
 * predicate does at most one own-property lookup and one comparison, Set
 * probe or regex test, and allocates nothing itself.
 */

export const alwaysTrue: LabelPredicate = () => true;
export const alwaysFalse: LabelPredicate = () => false;

/** The label is present. */
export function labelExists(name: string): LabelPredicate {
  return (labels: FlowLabels) => labelValue(labels, name) !== undefined;
}

/** The label is absent. */
export function labelAbsent(name: string): LabelPredicate {
  return (labels: FlowLabels) => labelValue(labels, name) === undefined;
}

/** The label is present and equal to `value` (false when absent). */
export function labelEquals(name: string, value: string): LabelPredicate {
  return (labels: FlowLabels) => labelValue(labels, name) === value;
}

/** The label is present and equal to one of `values` (non-empty). */
export function labelIn(name: string, values: readonly string[]): LabelPredicate {
  if (values.length === 1) return labelEquals(name, values[0]);
  const set = new Set(values);
  return (labels: FlowLabels) => {
    const value = labelValue(labels, name);
    return value !== undefined && set.has(value);
  };
}

/** The label is absent, or present and different from all of `values`. */
export function labelNotIn(name: string, values: readonly string[]): LabelPredicate {
  if (values.length === 1) {
    const only = values[0];
    return (labels: FlowLabels) => labelValue(labels, name) !== only;
  }
  const set = new Set(values);
  return (labels: FlowLabels) => {
    const value = labelValue(labels, name);
    return value === undefined || !set.has(value);
  };
}

/** Anything with an allocation-light unanchored search (re2js `RE2JS#test`). */
export interface RegexTester {
  test(input: string): boolean;
}

/** The label is present and `regex` finds a match somewhere in its value. */
export function labelMatches(name: string, regex: RegexTester): LabelPredicate {
  return (labels: FlowLabels) => {
    const value = labelValue(labels, name);
    return value !== undefined && regex.test(value);
  };
}

/** Negation. */
export function not(inner: LabelPredicate): LabelPredicate {
  return (labels: FlowLabels) => !inner(labels);
}

/** Conjunction; the empty conjunction is true. */
export function allOf(parts: readonly LabelPredicate[]): LabelPredicate {
  if (parts.length === 0) return alwaysTrue;
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) {
    const [a, b] = parts;
    return (labels: FlowLabels) => a(labels) && b(labels);
  }
  const list = parts.slice();
  const n = list.length;
  return (labels: FlowLabels) => {
    for (let i = 0; i < n; i++) if (!list[i](labels)) return false;
    return true;
  };
}

/** Disjunction; the empty disjunction is false. */
export function anyOf(parts: readonly LabelPredicate[]): LabelPredicate {
  if (parts.length === 0) return alwaysFalse;
  if (parts.length === 1) return parts[0];
  if (parts.length === 2) {
    const [a, b] = parts;
    return (labels: FlowLabels) => a(labels) || b(labels);
  }
  const list = parts.slice();
  const n = list.length;
  return (labels: FlowLabels) => {
    for (let i = 0; i < n; i++) if (list[i](labels)) return true;
    return false;
  };
}
