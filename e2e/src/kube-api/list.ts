// Lists of the test API server: label and field selectors, resourceVersion and
// resourceVersionMatch=Exact, limit and continue tokens (410 once their version is too old), and
// Tables for `kubectl get`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, badRequest, gone } from './api-error.js';
import { parseFieldSelector } from './field-selector.js';
import { send } from './http-io.js';
import { parseLabelSelector } from './label-selector.js';
import { asServed, grOf, parseRv } from './object-fields.js';
import { apiVersionOf } from './resource-types.js';
import type { KubeObject, Store } from './store.js';
import { toTable, wantsTable } from './table.js';
import type { Target } from './target.js';

/** The objects the target's namespace and the URL's labelSelector and fieldSelector take. */
export function matcherOf(t: Target, url: URL): (o: KubeObject) => boolean {
  const labels = parseLabelSelector(url.searchParams.get('labelSelector'));
  const fields = parseFieldSelector(t.type.group, t.type.resource, url.searchParams.get('fieldSelector'));
  return (o) => (t.namespace === undefined || o.metadata.namespace === t.namespace) && labels(o.metadata.labels) && fields(o);
}

export function select(store: Store, t: Target, url: URL): KubeObject[] {
  const m = matcherOf(t, url);
  return store.list(grOf(t.type), t.namespace).filter(m);
}

export function serveList(store: Store, req: IncomingMessage, res: ServerResponse, url: URL, t: Target): void {
  const rvParam = url.searchParams.get('resourceVersion');
  if (rvParam && rvParam !== '0' && url.searchParams.get('resourceVersionMatch') === 'Exact') {
    const rv = parseRv(rvParam);
    if (rv !== store.currentRv()) {
      if (rv < store.oldestWatchableRv()) throw gone(`The resourceVersion for the provided list is too old.`);
      throw new ApiError(504, 'ServiceUnavailable', 'the test API server lists only at the current resourceVersion');
    }
  }
  let items = select(store, t, url);
  const limitRaw = url.searchParams.get('limit');
  const cont = url.searchParams.get('continue');
  const listMeta: Record<string, unknown> = { resourceVersion: String(store.currentRv()) };
  if (cont) {
    let token: { rv: number; after: string };
    try {
      token = JSON.parse(Buffer.from(cont, 'base64url').toString('utf8')) as { rv: number; after: string };
    } catch {
      throw badRequest('continue key is not valid');
    }
    if (typeof token.rv !== 'number' || typeof token.after !== 'string') throw badRequest('continue key is not valid');
    if (token.rv < store.oldestWatchableRv()) throw gone('The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.');
    items = items.filter((o) => `${o.metadata.namespace ?? ''}/${o.metadata.name}` > token.after);
    listMeta.resourceVersion = String(token.rv);
  }
  const limit = limitRaw ? Number(limitRaw) : 0;
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`invalid limit: ${limitRaw}`);
  if (limit > 0 && items.length > limit) {
    const last = items[limit - 1];
    items = items.slice(0, limit);
    listMeta.continue = Buffer.from(JSON.stringify({ rv: Number(listMeta.resourceVersion), after: `${last.metadata.namespace ?? ''}/${last.metadata.name}` })).toString('base64url');
  }
  const served = items.map((o) => asServed(t.type, o));
  if (wantsTable(req.headers.accept)) return send(res, 200, toTable(t.type, served, listMeta, url.searchParams.get('includeObject')));
  send(res, 200, { apiVersion: apiVersionOf(t.type), kind: t.type.listKind, metadata: listMeta, items: served });
}
