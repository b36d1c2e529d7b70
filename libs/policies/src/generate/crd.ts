import { stringify } from 'yaml';
import { PolicySpecSchema } from '../schema/policy.js';
import { PolicyStatusSchema } from '../schema/status.js';

export const CRD_GROUP = 'sluice.dev';
export const CRD_VERSION = 'v1alpha1';
export const CRD_PLURAL = 'policies';
export const CRD_KIND = 'Policy';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys the CRD keeps from a schema node; everything else (ajv-only rules, x-sluice-*) is dropped. */
const KEPT = new Set([
  'type',
  'format',
  'description',
  'title',
  'properties',
  'required',
  'items',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'additionalProperties',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
]);

/** OpenAPI formats the API server knows (the policy schema's own, such as `positive_duration`, are left out). */
const KUBERNETES_FORMATS = new Set(['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password']);

/**
 * The structural form of a schema node: every node keeps its `type`;
 * closed objects lose `additionalProperties: false` (Kubernetes prunes
 * unknown fields instead; the controller's compile names them); numeric
 * `exclusiveMinimum` becomes OpenAPI 3.0's `minimum` + `exclusiveMinimum: true`;
 * defaults are left out so the API server stores the spec as written; with `proto3Numbers` (the
 * spec, not the status) numeric fields also take their proto3 JSON strings.
 */
export function structural(node: unknown, proto3Numbers = false): Json {
  const n = node as Record<string, unknown>;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(n)) {
    if (!KEPT.has(key) || (key === 'format' && !KUBERNETES_FORMATS.has(String(value)))) continue;
    if (key === 'properties') {
      const props: Record<string, Json> = {};
      for (const [name, child] of Object.entries(value as Record<string, unknown>)) props[name] = structural(child, proto3Numbers);
      out.properties = props;
    } else if (key === 'items') out.items = structural(value, proto3Numbers);
    else if (key === 'additionalProperties') {
      if (typeof value === 'object' && value !== null) out.additionalProperties = structural(value, proto3Numbers);
    } else out[key] = value as Json;
  }
  if (n.default !== undefined) out.description = `${String(out.description ?? '')} Default: ${JSON.stringify(n.default)}.`.trim();
  if (typeof n.exclusiveMinimum === 'number') {
    out.minimum = n.exclusiveMinimum;
    out.exclusiveMinimum = true;
  }
  return proto3Numbers ? numberOrString(out) : out;
}

/**
 * Numeric fields also take the proto3 JSON string forms (`"50"`, `"0.5"`, `"NaN"`), which the
 * controller turns into numbers (and refuses, naming the field, when they are not numbers): an
 * integer field is `x-kubernetes-int-or-string`; a double field, which a structural schema cannot
 * type as "number or string", takes any value (`x-kubernetes-preserve-unknown-fields`, no type).
 */
function numberOrString(out: Record<string, Json>): Json {
  if (out.type === 'integer') {
    const { type: _type, format: _format, ...rest } = out;
    return { ...rest, 'x-kubernetes-int-or-string': true, description: `${String(rest.description ?? '')} An integer, or a decimal string (proto3 JSON).`.trim() };
  }
  if (out.type === 'number') {
    const { type: _type, format: _format, minimum: _min, maximum: _max, exclusiveMinimum: _ex, ...rest } = out;
    const bounds = [
      typeof out.minimum === 'number' ? `${out.exclusiveMinimum === true ? '>' : '≥'} ${out.minimum}` : '',
      typeof out.maximum === 'number' ? `≤ ${out.maximum}` : '',
    ].filter((b) => b !== '').join(', ');
    const text = `${String(rest.description ?? '')} A number, or a decimal string (proto3 JSON)${bounds === '' ? '' : `; ${bounds}`}; checked by the controller.`.trim();
    return { ...rest, 'x-kubernetes-preserve-unknown-fields': true, description: text };
  }
  return out;
}

/** The Policy CustomResourceDefinition, its spec schema generated from the policy schema. */
export function policyCrd(): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${CRD_PLURAL}.${CRD_GROUP}` },
    spec: {
      group: CRD_GROUP,
      names: { kind: CRD_KIND, listKind: `${CRD_KIND}List`, plural: CRD_PLURAL, singular: 'policy' },
      scope: 'Namespaced',
      versions: [
        {
          name: CRD_VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Status', type: 'string', jsonPath: '.status.status', description: 'uploading, uploaded or failed' },
            { name: 'Message', type: 'string', jsonPath: '.status.message', priority: 1, description: 'Why the policy failed, or what it ignores' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A Sluice flow-control policy (the shape of Aperture 2.8 policies).',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string', description: 'sluice.dev/v1alpha1.' },
                kind: { type: 'string', description: 'Policy.' },
                metadata: { type: 'object', description: 'The name of the policy (unique across namespaces), its namespace and labels.' },
                spec: structural(PolicySpecSchema, true),
                dynamicConfig: {
                  type: 'object',
                  'x-kubernetes-preserve-unknown-fields': true,
                  description: 'The dynamic configuration of the policy: values by the keys its components name (`config_key`, `dry_run_config_key`, `pass_through_label_values_config_key`); changed without re-publishing the policy.',
                },
                status: structural(PolicyStatusSchema),
              },
            },
          },
        },
      ],
    },
  };
}

/** crds/policies.sluice.dev.yaml as written to the repository. */
export function policyCrdYaml(): string {
  return `# Generated from libs/policies (the policy schema); do not edit. Regenerate: node libs/policies/dist/generate/write-generated.js\n${stringify(policyCrd(), { lineWidth: 0 })}`;
}
