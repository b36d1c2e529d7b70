// The schemas of the OpenAPI v3 documents: each custom resource's `openAPIV3Schema`, named as the
// real API server names it (`<reversed group>.<version>.<Kind>`, e.g. dev.sluice.v1alpha1.Policy)
// and marked with its group-version-kind, and the ObjectMeta its `metadata` points to. That is
// what `kubectl explain` reads. Built-in kinds have no schema here.
import { isObject } from './object-fields.js';
import type { ResourceType } from './resource-types.js';

const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

const objectMeta = {
  type: 'object',
  description: 'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
  properties: {
    name: { type: 'string', description: 'Name must be unique within a namespace.' },
    generateName: { type: 'string', description: 'An optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided.' },
    namespace: { type: 'string', description: 'Namespace defines the space within which each name must be unique.' },
    uid: { type: 'string', description: 'UID is the unique in time and space value for this object.' },
    resourceVersion: { type: 'string', description: 'An opaque value that represents the internal version of this object.' },
    generation: { type: 'integer', format: 'int64', description: 'A sequence number representing a specific generation of the desired state.' },
    creationTimestamp: { type: 'string', format: 'date-time', description: 'A timestamp representing the server time when this object was created.' },
    deletionTimestamp: { type: 'string', format: 'date-time', description: 'RFC 3339 date and time at which this resource will be deleted.' },
    labels: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Map of string keys and values that can be used to organize and categorize (scope and select) objects.' },
    annotations: { type: 'object', additionalProperties: { type: 'string', default: '' }, description: 'Annotations is an unstructured key value map stored with a resource.' },
    finalizers: { type: 'array', items: { type: 'string', default: '' }, description: 'Must be empty before the object is deleted from the registry.' },
  },
};

/** `sluice.dev` → `dev.sluice`. */
const reversed = (group: string): string => group.split('.').reverse().join('.');

/** The schema name of a kind, or undefined for a built-in kind (none served). */
export function schemaName(t: ResourceType): string | undefined {
  return t.schema !== undefined && isObject(t.schema) ? `${reversed(t.group)}.${t.version}.${t.kind}` : undefined;
}

/** `components.schemas` of one group-version's document. */
export function schemasOf(types: ResourceType[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const t of types) {
    const name = schemaName(t);
    if (name === undefined || !isObject(t.schema)) continue;
    const schema = structuredClone(t.schema);
    const props = isObject(schema.properties) ? schema.properties : {};
    const meta = isObject(props.metadata) ? props.metadata : {};
    props.metadata = { description: typeof meta.description === 'string' ? meta.description : 'Standard object\'s metadata.', allOf: [{ $ref: `#/components/schemas/${OBJECT_META}` }] };
    schema.properties = props;
    out[name] = { ...schema, 'x-kubernetes-group-version-kind': [{ group: t.group, version: t.version, kind: t.kind }] };
    out[OBJECT_META] = objectMeta;
  }
  return out;
}
