import type { Entity } from './entity.js';
import { normalizeIp } from './normalize-ip.js';

const NO_SERVICES: readonly string[] = Object.freeze([]);

/**
 * Entities known to the agent, by uid, with an index by IP address. Lookups
 * by IP answer a frozen array that stays the same object until an entity at
 * that IP changes, so callers may keep it for the duration of a request.
 * Several entities may share one IP (host-network pods); their services are
 * merged, in the order the entities were added, without duplicates.
 */
export class EntityCache {
  private readonly byUid = new Map<string, Entity>();
  private readonly uidsByIp = new Map<string, Set<string>>();
  private readonly servicesCache = new Map<string, readonly string[]>();

  /** The services of the entity (or entities) at `ip`; empty when unknown. */
  servicesByIp(ip: string): readonly string[] {
    const cached = this.servicesCache.get(ip);
    if (cached !== undefined) return cached;
    const key = normalizeIp(ip);
    if (key === ip) return NO_SERVICES;
    return this.servicesCache.get(key) ?? NO_SERVICES;
  }

  /** The entities at `ip`. */
  entitiesByIp(ip: string): Entity[] {
    const uids = this.uidsByIp.get(normalizeIp(ip));
    if (uids === undefined) return [];
    const out: Entity[] = [];
    for (const uid of uids) {
      const e = this.byUid.get(uid);
      if (e !== undefined) out.push(e);
    }
    return out;
  }

  getByUid(uid: string): Entity | undefined {
    return this.byUid.get(uid);
  }

  get size(): number {
    return this.byUid.size;
  }

  /** All entities, in insertion order. */
  entities(): Entity[] {
    return [...this.byUid.values()];
  }

  /** Add an entity, or update the one with the same uid. */
  add(entity: Entity): void {
    const copy = copyEntity(entity);
    const old = this.byUid.get(copy.uid);
    if (old !== undefined) this.unindex(old);
    this.byUid.set(copy.uid, copy);
    this.index(copy);
  }

  /** Remove the entity with this uid; true when there was one. */
  remove(uid: string): boolean {
    const old = this.byUid.get(uid);
    if (old === undefined) return false;
    this.byUid.delete(uid);
    this.unindex(old);
    return true;
  }

  /** Replace the whole content (a full resync). */
  replace(entities: readonly Entity[]): void {
    this.byUid.clear();
    this.uidsByIp.clear();
    this.servicesCache.clear();
    for (const e of entities) {
      const copy = copyEntity(e);
      const old = this.byUid.get(copy.uid);
      if (old !== undefined) this.unindex(old);
      this.byUid.set(copy.uid, copy);
      this.index(copy);
    }
  }

  private index(e: Entity): void {
    const ip = normalizeIp(e.ip_address);
    let uids = this.uidsByIp.get(ip);
    if (uids === undefined) {
      uids = new Set();
      this.uidsByIp.set(ip, uids);
    }
    uids.add(e.uid);
    this.recompute(ip);
  }

  private unindex(e: Entity): void {
    const ip = normalizeIp(e.ip_address);
    const uids = this.uidsByIp.get(ip);
    if (uids === undefined) return;
    uids.delete(e.uid);
    if (uids.size === 0) this.uidsByIp.delete(ip);
    this.recompute(ip);
  }

  private recompute(ip: string): void {
    const uids = this.uidsByIp.get(ip);
    if (uids === undefined) {
      this.servicesCache.delete(ip);
      return;
    }
    const services: string[] = [];
    for (const uid of uids) {
      for (const s of this.byUid.get(uid)?.services ?? []) if (!services.includes(s)) services.push(s);
    }
    this.servicesCache.set(ip, Object.freeze(services));
  }
}

function copyEntity(e: Entity): Entity {
  if (typeof e.uid !== 'string' || e.uid === '') throw new TypeError('entity uid must be a non-empty string');
  if (typeof e.ip_address !== 'string' || e.ip_address === '') {
    throw new TypeError(`entity ${e.uid}: ip_address must be a non-empty string`);
  }
  return { ...e, services: e.services === undefined ? [] : [...e.services] };
}
