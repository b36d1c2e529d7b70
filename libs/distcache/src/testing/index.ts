// @sluice/distcache/testing: for tests and benches only. A member of the cache in its own process, driven
// over stdin (HarnessProcess), and a simulated network on a simulated clock for membership tests (SimNetwork).
export { HarnessProcess, HARNESS_SCRIPT, type HarnessReady } from './harness-client.js';
export { SimNetwork, seededRandom, type SimNetworkOptions } from './sim-network.js';
