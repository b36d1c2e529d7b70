export type { Entity, StaticDiscoveryConfig } from './entity.js';
export { EntityCache } from './entity-cache.js';
export { normalizeIp } from './normalize-ip.js';
export { createStaticDiscovery } from './static-discovery.js';
