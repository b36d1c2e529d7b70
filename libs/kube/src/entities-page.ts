// `GET /v1/discovery/entities`: what the agent's service discovery knows, in pages ordered by IP
// then uid. `limit` 1..1000 (default 100); `page_token` is the opaque `next_page_token` of the
// previous page; `ip` and `service` narrow the list.
import type { Entity, EntityCache } from '@sluice/discovery';
import { normalizeIp } from '@sluice/discovery';
import { InvalidArgumentError } from '@sluice/errors';

export const DEFAULT_ENTITIES_LIMIT = 100;
export const MAX_ENTITIES_LIMIT = 1000;

export interface EntitiesQuery {
  limit?: unknown;
  page_token?: unknown;
  service?: unknown;
  ip?: unknown;
}

export interface EntitiesPage {
  entities: Entity[];
  next_page_token: string;
  /** Entities matching the filters, over all pages. */
  total: number;
}

function sortKey(e: Entity): string {
  return `${normalizeIp(e.ip_address)}\u0000${e.uid}`;
}

function one(v: unknown, field: string): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new InvalidArgumentError(`${field} must be given once`, field);
  return v;
}

export function entitiesPage(cache: EntityCache, q: EntitiesQuery): EntitiesPage {
  const limitText = one(q.limit, 'limit');
  const token = one(q.page_token, 'page_token');
  const service = one(q.service, 'service');
  const ip = one(q.ip, 'ip');
  let limit = DEFAULT_ENTITIES_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d{1,7}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_ENTITIES_LIMIT) {
      throw new InvalidArgumentError(`limit must be an integer from 1 to ${MAX_ENTITIES_LIMIT}, got ${JSON.stringify(limitText.slice(0, 40))}`, 'limit');
    }
    limit = Number(limitText);
  }
  let after = '';
  if (token !== undefined && token !== '') {
    const decoded = Buffer.from(token, 'base64url').toString('utf8');
    if (!decoded.startsWith('e:') || Buffer.from(decoded, 'utf8').toString('base64url') !== token) throw new InvalidArgumentError('page_token is not one this agent issued', 'page_token');
    after = decoded.slice(2);
  }
  const wantIp = ip === undefined ? undefined : normalizeIp(ip);
  const all = cache.entities()
    .filter((e) => (service === undefined || (e.services ?? []).includes(service)) && (wantIp === undefined || normalizeIp(e.ip_address) === wantIp))
    .map((e) => ({ e, k: sortKey(e) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const rest = after === '' ? all : all.filter((x) => x.k > after);
  const page = rest.slice(0, limit);
  const next = rest.length > limit ? Buffer.from(`e:${page[page.length - 1].k}`, 'utf8').toString('base64url') : '';
  return { entities: page.map((x) => x.e), next_page_token: next, total: all.length };
}
