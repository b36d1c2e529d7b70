import { Type, type Static, type TLiteral, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { MAX_SELECTORS_PER_COMPONENT } from '../schema/selector.js';

/**
 * Builders of the published contract: what the controller writes under `N/config/` and
 * `N/decisions/` and the agents read (durations in milliseconds, defaults filled in by the
 * compiler). Objects stay open: an agent ignores members it does not know (a newer
 * controller's), and refuses a member it knows whose value is wrong.
 */

/** A label filter (the preview's filter language), checked by the agent when it compiles it. */
export const PublishedLabelMatcher = Type.Unsafe<Record<string, unknown>>({ type: 'object', description: 'A label filter; absent matches every flow.' });

/** The selector of a flow-control component, as in the policy language. */
export const PublishedSelector = Type.Object(
  {
    control_point: Type.String({ minLength: 1, description: 'The control point.' }),
    service: Type.Optional(Type.String({ description: 'The service; default `any`.' })),
    agent_group: Type.Optional(Type.String({ description: 'The agent group; default `default`.' })),
    label_matcher: Type.Optional(PublishedLabelMatcher),
  },
  { title: 'PublishedSelector' },
);
export type PublishedSelector = Static<typeof PublishedSelector>;

/** The selectors of a component that selects flows: at least one, at most MAX_SELECTORS_PER_COMPONENT. */
export const PublishedSelectors = Type.Array(PublishedSelector, { minItems: 1, maxItems: MAX_SELECTORS_PER_COMPONENT });

/** The selectors of a component that selects no flows (a pod scaler): none. */
export const NoSelectors = Type.Array(PublishedSelector, { maxItems: 0 });

/** A count of tokens, a percentage part, a duration in milliseconds: a number of at least 0. */
export const NonNegative = (description: string) => Type.Number({ minimum: 0, description });

const base = {
  policy_name: Type.String({ description: 'The policy.' }),
  policy_hash: Type.String({ description: 'The hash of the policy\'s spec.' }),
  component_id: Type.String({ description: '`root.<i>`, `classifier.<i>` or `flux_meter.<name>`.' }),
  agent_group: Type.String({ description: 'The agent group the component is published for.' }),
  /**
   * How many components the policy publishes to this agent group: an agent enforces a policy's
   * version once it holds that many configurations of one policy_hash. Absent: the component stands alone.
   */
  policy_components: Type.Optional(Type.Integer({ minimum: 1, description: 'Components of the policy in this agent group.' })),
};

/** The configuration of one flow-control kind: the common members, `kind`, its selectors and its own members. */
export function publishedComponent<K extends string, P extends TProperties, S extends TSchema = typeof PublishedSelectors>(
  kind: K,
  properties: P,
  selectors?: S,
) {
  return Type.Object(
    { kind: Type.Literal(kind), ...base, selectors: (selectors ?? PublishedSelectors) as S, ...properties },
    { title: `Published ${kind}` },
  );
}

/** The decision of one flow-control kind: `kind` and its live numbers. */
export function publishedDecision<K extends string, P extends TProperties>(kind: K, properties: P) {
  return Type.Object({ kind: Type.Literal(kind), ...properties }, { title: `Published ${kind} decision` });
}

/** A problem a schema cannot say (a bound between two members), with its path. */
export interface ContractProblem {
  path: string;
  message: string;
}

/** One flow-control kind's published contract. */
export interface PublishedKind<C extends TObject = TObject, D extends TObject | undefined = TObject | undefined> {
  /** Its configuration (`kind` is a literal member). */
  readonly component: C;
  /** Its decision; undefined for a kind that takes none (classifier, flux meter). */
  readonly decision: D;
  /** Checks across members of a configuration the schema validated. */
  check?(component: Static<C>): ContractProblem | undefined;
  /**
   * One configuration of this kind the validator accepts (and one decision, for a kind that takes
   * them): the registry's test builds each kind from it on the agent and encodes its decision, so
   * a kind missing a piece fails there.
   */
  readonly example: { readonly component: Static<C>; readonly decision: D extends TObject ? Static<D> : undefined };
}

/** Define a kind's contract (keeps its schemas' types). */
export function publishedKind<C extends TObject, D extends TObject | undefined>(kind: PublishedKind<C, D>): PublishedKind<C, D> {
  return kind;
}

/** The members every example configuration shares (its policy, hash and agent group). */
export const EXAMPLE_COMMON = { policy_name: 'example', policy_hash: 'h', agent_group: 'default' } as const;

/** The literal `kind` of a contract's component schema. */
export function kindName(kind: PublishedKind): string {
  return (kind.component.properties.kind as TLiteral<string>).const;
}
