import type { PublishedComponent } from '../published.js';
import type { Selector } from '../schema/selector.js';
import type { KindContext } from './kind.js';

type Header = 'policy_name' | 'policy_hash' | 'component_id' | 'agent_group' | 'selectors';
/** A published component without what `publishByGroup` fills in, for each kind. */
export type PublishedBody = PublishedComponent extends infer C ? C extends PublishedComponent ? Omit<C, Header> : never : never;

/**
 * Publishes the component once per agent group of its `selectors` (checked at `path`): each copy
 * carries the policy's name and hash, the component's id, the group and that group's selectors,
 * then `body`. The agents of a group read only their own copy.
 */
export function publishByGroup(ctx: KindContext, selectors: readonly Selector[], path: string, body: PublishedBody): void {
  const { kind, ...rest } = body;
  for (const [group, groupSelectors] of ctx.selectors(selectors, path)) {
    ctx.publish({
      kind,
      policy_name: ctx.policyName,
      policy_hash: ctx.policyHash,
      component_id: ctx.componentId,
      agent_group: group,
      selectors: groupSelectors,
      ...rest,
    } as PublishedComponent);
  }
}
