/** A JSON Schema (draft-07) as a plain object. */
export type JsonSchema = Record<string, unknown>;

/** What `blueprints generate` writes: a Policy resource. */
export interface PolicyResource {
  apiVersion: 'fluxninja.com/v1alpha1';
  kind: 'Policy';
  metadata: { name: string };
  spec: Record<string, unknown>;
}

/**
 * A blueprint: a values schema (with its defaults) and the policy spec it builds from values the
 * schema has accepted (defaults filled in).
 */
export interface Blueprint {
  name: string;
  /** One line, for `blueprints list`. */
  description: string;
  /** The schema of the values file; every blueprint's has `policy_name`. */
  schema: JsonSchema;
  /** A values file that generates a working policy (`blueprints values NAME` prints it). */
  example: Record<string, unknown>;
  /** The policy spec of validated values. */
  spec(values: Record<string, unknown>): Record<string, unknown>;
}

/**
 * A blueprint whose `spec` takes its own values type: the registry only calls it with values its
 * schema accepted, defaults filled in, which is what `V` describes.
 */
export function defineBlueprint<V extends { policy_name: string }>(b: Omit<Blueprint, 'spec'> & { spec(values: V): Record<string, unknown> }): Blueprint {
  return { ...b, spec: (values) => b.spec(values as V) };
}
