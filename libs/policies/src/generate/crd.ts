import { stringify } from 'yaml';
import { PolicySpecSchema } from '../schema/policy.js';

export const CRD_GROUP = 'sluice.dev';
export const CRD_VERSION = 'v1alpha1';
export const CRD_PLURAL = 'policies';
export const CRD_KIND = 'Policy';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Keys the CRD keeps from a schema node; everything else (ajv-only rules, x-sluice-*) is dropped. */
const KEPT = new Set([
  'type',
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
]);

/**
 * The structural form of a schema node: every node keeps its `type`;
 * closed objects lose `additionalProperties: false` (Kubernetes prunes
 * unknown fields instead; the controller's compile names them); numeric
 * `exclusiveMinimum` becomes OpenAPI 3.0's `minimum` + `exclusiveMinimum: true`;
 * defaults are left out so the API server stores the spec as written.
 */
export function structural(node: unknown): Json {
  const n = node as Record<string, unknown>;
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(n)) {
    if (!KEPT.has(key)) continue;
    if (key === 'properties') {
      const props: Record<string, Json> = {};
      for (const [name, child] of Object.entries(value as Record<string, unknown>)) props[name] = structural(child);
      out.properties = props;
    } else if (key === 'items') out.items = structural(value);
    else if (key === 'additionalProperties') {
      if (typeof value === 'object' && value !== null) out.additionalProperties = structural(value);
    } else out[key] = value as Json;
  }
  if (n.default !== undefined) out.description = `${String(out.description ?? '')} Default: ${JSON.stringify(n.default)}.`.trim();
  if (typeof n.exclusiveMinimum === 'number') {
    out.minimum = n.exclusiveMinimum;
    out.exclusiveMinimum = true;
  }
  return out;
}

const CONDITION: Json = {
  type: 'object',
  required: ['type', 'status'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string' },
    message: { type: 'string' },
    observedGeneration: { type: 'integer', format: 'int64' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
  },
};

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
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: structural(PolicySpecSchema),
                status: {
                  type: 'object',
                  description: 'Written by the controller.',
                  properties: {
                    status: { type: 'string', enum: ['uploading', 'uploaded', 'failed'] },
                    message: { type: 'string' },
                    observedGeneration: { type: 'integer', format: 'int64' },
                    conditions: { type: 'array', items: CONDITION },
                  },
                },
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
