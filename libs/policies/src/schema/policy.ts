import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { COMPONENT_KINDS, IGNORED_COMPONENTS, UNSUPPORTED_COMPONENTS } from '../components/index.js';
import { ignored, interval, list, obj, unsupported } from './fields.js';
import { Resources } from './resources.js';

export const DEFAULT_EVALUATION_INTERVAL = '10s';

interface Tree {
  schema?: TSchema;
  children: Map<string, Tree>;
}

/** Component's members, nested by their path in the registry (`flow_control` → `rate_limiter`). */
function componentTree(): Tree {
  const root: Tree = { children: new Map() };
  const place = (path: readonly string[], schema: TSchema, replace: boolean) => {
    let node = root;
    for (const segment of path) {
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = { children: new Map() }));
      node = child;
    }
    if (replace || node.schema === undefined) node.schema = schema;
  };
  for (const kind of COMPONENT_KINDS) place(kind.path, kind.schema, true);
  for (const path of UNSUPPORTED_COMPONENTS) place(path, unsupported(`Aperture's ${path.join('.')}: not supported by Sluice (a policy using it is refused).`), false);
  for (const path of IGNORED_COMPONENTS) place(path, ignored(`Aperture's ${path.join('.')}: accepted and ignored.`), false);
  return root;
}

function schemaOf(node: Tree, description: string): TSchema {
  if (node.schema !== undefined) return node.schema;
  const properties: Record<string, TSchema> = {};
  for (const [name, child] of [...node.children].sort(([a], [b]) => a.localeCompare(b))) {
    properties[name] = Type.Optional(schemaOf(child, `${name}: exactly one member.`));
  }
  return obj(properties, description, { minProperties: 1, maxProperties: 1 });
}

export const Component = Type.Unsafe<Record<string, unknown>>(
  schemaOf(componentTree(), 'One component of the circuit: exactly one member naming its kind.'),
);

export const Circuit = obj(
  {
    evaluation_interval: Type.Optional(
      interval('How often the circuit runs (the first run is at once when the policy is applied).', DEFAULT_EVALUATION_INTERVAL),
    ),
    components: Type.Optional(list(Component, 'The components, connected by signal names.')),
  },
  'The signal-processing circuit of the policy.',
);

/** The Policy spec (what a `Policy` resource's `spec` and the API's `policy` hold). */
export const PolicySpecSchema = obj(
  {
    circuit: Type.Optional(Circuit),
    resources: Type.Optional(Resources),
  },
  'A flow-control policy, in the shape of Aperture 2.8\'s policy language.',
);
export type PolicySpec = Static<typeof PolicySpecSchema>;

/** The JSON Schema of a Policy spec (for the CRD and the API). */
export const policyJsonSchema: Readonly<Record<string, unknown>> = PolicySpecSchema as unknown as Record<string, unknown>;
