import type { StaticDiscoveryConfig } from './entity.js';
import { EntityCache } from './entity-cache.js';

/**
 * An entity cache filled from `service_discovery.static.entities`. Pass an
 * existing cache to add the static entities to it (they are added after
 * whatever it holds, replacing entities with the same uid).
 */
export function createStaticDiscovery(config: StaticDiscoveryConfig | undefined, cache = new EntityCache()): EntityCache {
  for (const e of config?.entities ?? []) cache.add(e);
  return cache;
}
