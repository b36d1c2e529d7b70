import type { FlowLabels } from '@sluice/selectors';

const hasOwn = Object.prototype.hasOwnProperty;

/** The value of an own, string-valued label; undefined otherwise. */
export function labelValueOf(labels: FlowLabels, key: string): string | undefined {
  if (!hasOwn.call(labels, key)) return undefined;
  const v: unknown = labels[key];
  return typeof v === 'string' ? v : undefined;
}
