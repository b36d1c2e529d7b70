import { parsePublishedComponent, parsePublishedDecision, type PublishedComponent, type PublishedDecision } from '@sluice/policies';

/** The result of reading one etcd value: the parsed shape, or why it is refused (with the JSON path at fault). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A PublishedComponent from its etcd value, checked with the published contract's shared validator. */
export function parseComponent(text: string): Parsed<PublishedComponent> {
  const c = parsePublishedComponent(text);
  return c.ok ? c : { ok: false, error: c.error };
}

/** A PublishedDecision from its etcd value, checked with the published contract's shared validator. */
export function parseDecision(text: string): Parsed<PublishedDecision> {
  const d = parsePublishedDecision(text);
  return d.ok ? d : { ok: false, error: d.error };
}
