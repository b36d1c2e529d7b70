import type { FlowLabels } from './label-matcher.js';

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The value of label `name`, or undefined when there is no such label. Reads
 * own properties only (never the prototype chain) and ignores values that
 * are not strings. Allocates nothing.
 */
export function labelValue(labels: FlowLabels, name: string): string | undefined {
  if (!hasOwn.call(labels, name)) return undefined;
  const value: unknown = labels[name];
  return typeof value === 'string' ? value : undefined;
}
