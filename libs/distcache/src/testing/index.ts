// @sluice/distcache/testing: for tests and benches only. A member of the cache in its own process, driven
// over stdin (HarnessProcess), a simulated network on a simulated clock for membership tests (SimNetwork),
// and one for counter operations with members that hand buckets over as a DistCache does (SimOps, SimMember).
export { HarnessProcess, HARNESS_SCRIPT, type HarnessReady } from './harness-client.js';
export { SimNetwork, seededRandom, type SimNetworkOptions } from './sim-network.js';
export { SimOps, type SimOpsOptions } from './sim-ops.js';
export { SimMember, type SimMemberOptions } from './sim-member.js';
