// What a resource URL of the test API server names: the type, the namespace, the object, the
// subresource, and whether it is a watch (?watch=true or the old /watch/ prefix).
import { ApiError } from './api-error.js';
import type { ResourceType } from './resource-types.js';
import type { TypeRegistry } from './type-registry.js';

export interface Target {
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  watch: boolean;
}

function notFound(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource');
}

/** `rest` is the path after /api/<version> or /apis/<group>/<version>, decoded and split. */
export function parseTarget(types: TypeRegistry, group: string, version: string, rest: string[], url: URL): Target {
  let segs = rest;
  let watch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
  if (segs[0] === 'watch') {
    watch = true;
    segs = segs.slice(1);
  }
  // /api/v1/namespaces/<ns>/status|finalize are subresources of the namespace itself.
  if (segs[0] === 'namespaces' && segs.length >= 3 && !(group === '' && segs.length === 3 && (segs[2] === 'status' || segs[2] === 'finalize'))) {
    const type = types.get(group, version, segs[2]);
    if (!type.namespaced) throw notFound();
    if (segs.length > 5) throw notFound();
    return { type, namespace: segs[1], name: segs[3], subresource: segs[4], watch };
  }
  if (segs.length > 3) throw notFound();
  const type = types.get(group, version, segs[0]);
  if (type.namespaced && segs.length > 1) throw notFound();
  return { type, name: segs[1], subresource: segs[2], watch };
}
