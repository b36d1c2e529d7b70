// Discovery documents of the test API server: /version, /api, /apis, /apis/<group>, the
// resource list of each group version (with the status and scale subresources) and OpenAPI v3.
import { ApiError, notFound } from './api-error.js';
import { openApiV3 } from './openapi.js';
import { apiVersionOf, VERBS, type ResourceType } from './resource-types.js';

const VERSION_INFO = { major: '1', minor: '32', gitVersion: 'v1.32.0-sluice-test', gitCommit: '', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z', goVersion: 'go1.23', compiler: 'gc', platform: 'linux/amd64' };

interface GroupVersion {
  groupVersion: string;
  version: string;
}

interface ApiGroup {
  name: string;
  versions: GroupVersion[];
  preferredVersion: GroupVersion;
}

/** GET /api: the core group's versions, served at the given host:port. */
function apiVersions(serverAddress: string): unknown {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

/** GET /apis: every named group with its versions (the first one registered is preferred). */
export function groupList(types: Iterable<ResourceType>): { kind: string; apiVersion: string; groups: ApiGroup[] } {
  const groups = new Map<string, string[]>();
  for (const t of types) {
    if (t.group === '') continue;
    const vs = groups.get(t.group) ?? [];
    if (!vs.includes(t.version)) vs.push(t.version);
    groups.set(t.group, vs);
  }
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups.entries()].map(([name, versions]) => {
      const vs = versions.map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
      return { name, versions: vs, preferredVersion: vs[0] };
    }),
  };
}

/** GET /apis/<group>. */
export function apiGroup(types: Iterable<ResourceType>, name: string): unknown {
  const g = groupList(types).groups.find((x) => x.name === name);
  if (!g) throw notFound('', 'groups', name);
  return { kind: 'APIGroup', apiVersion: 'v1', ...g };
}

/** GET /api/v1 or /apis/<group>/<version>: the resources with their verbs and subresources. */
export function resourceList(types: Iterable<ResourceType>, group: string, version: string): unknown {
  const inVersion = [...types].filter((t) => t.group === group && t.version === version);
  if (inVersion.length === 0) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
  const resources: unknown[] = [];
  for (const t of inVersion) {
    const base = { name: t.resource, singularName: t.singular, namespaced: t.namespaced, kind: t.kind, verbs: VERBS };
    resources.push({ ...base, ...(t.shortNames.length ? { shortNames: t.shortNames } : {}), ...(t.categories.length ? { categories: t.categories } : {}) });
    if (t.status) resources.push({ name: `${t.resource}/status`, singularName: '', namespaced: t.namespaced, kind: t.kind, verbs: ['get', 'patch', 'update'] });
    if (t.scale) resources.push({ name: `${t.resource}/scale`, singularName: '', namespaced: t.namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

/** The document at one of the fixed discovery paths (no trailing slash), or undefined for another path. */
export function discoveryDocument(p: string, types: ResourceType[], serverAddress: string): unknown {
  if (p === '/version') return VERSION_INFO;
  if (p === '/api') return apiVersions(serverAddress);
  if (p === '/apis') return groupList(types);
  if (p === '/openapi/v2') throw notFound('', 'openapi', 'v2');
  if (p === '/openapi/v3') return openApiV3(types).root;
  if (p.startsWith('/openapi/v3/')) {
    const doc = openApiV3(types).documents.get(p.slice('/openapi/v3/'.length));
    if (!doc) throw new ApiError(404, 'NotFound', 'the server could not find the requested resource');
    return doc;
  }
  return undefined;
}
