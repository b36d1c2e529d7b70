// A minimal OpenAPI v3 for kubectl: the root lists one document per group-version, and each
// document has the item path of every resource with a PATCH operation that names its
// group-version-kind and the `fieldValidation` query parameter. That is what kubectl looks for
// to leave validation to the server (`fieldValidation=Strict`) instead of validating on the
// client against /openapi/v2, which this server does not serve. Custom resources' schemas are in
// `components.schemas` (openapi-schemas.ts), for `kubectl explain`; built-in kinds have none, and no
// PATCH operation lists request bodies, so kubectl computes strategic merge patches from its
// built-in types, as it does against old servers.
import { createHash } from 'node:crypto';
import { schemasOf } from './openapi-schemas.js';
import type { ResourceType } from './resource-types.js';

function gvPath(t: { group: string; version: string }): string {
  return t.group === '' ? `api/${t.version}` : `apis/${t.group}/${t.version}`;
}

export function groupVersionDocument(types: ResourceType[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const t of types) {
    const base = `/${gvPath(t)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.resource}/{name}`;
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const op = (verb: string) => ({
      operationId: `${verb}${t.kind}`,
      'x-kubernetes-action': verb,
      'x-kubernetes-group-version-kind': gvk,
      parameters: [{ name: 'fieldValidation', in: 'query', schema: { type: 'string', uniqueItems: true } }],
      responses: { '200': { description: 'OK' } },
    });
    paths[base] = { get: op('get'), put: op('put'), patch: op('patch'), delete: op('delete') };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.0-sluice-test' }, paths, components: { schemas: schemasOf(types) } };
}

/** The /openapi/v3 root and the documents it points to, keyed by their `<gv path>`. */
export function openApiV3(types: ResourceType[]): { root: unknown; documents: Map<string, Record<string, unknown>> } {
  const byGv = new Map<string, ResourceType[]>();
  for (const t of types) {
    const k = gvPath(t);
    byGv.set(k, [...(byGv.get(k) ?? []), t]);
  }
  const documents = new Map<string, Record<string, unknown>>();
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const [k, ts] of byGv) {
    const doc = groupVersionDocument(ts);
    documents.set(k, doc);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').slice(0, 128).toUpperCase();
    paths[k] = { serverRelativeURL: `/openapi/v3/${k}?hash=${hash}` };
  }
  return { root: { paths }, documents };
}

