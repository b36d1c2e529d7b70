import type { BackoffConfig } from '@sluice/clients';

/** What a process knows about its connection to the Kubernetes API. */
export type ApiState = 'connecting' | 'connected' | 'unavailable';

export { silentLogger } from '@sluice/telemetry/logger';

/** Delays between attempts after the API failed: 0.5 s growing ×2 to 30 s, ±20 %; a key left out takes this value. */
export const KUBE_RETRY_BACKOFF: BackoffConfig = { base_delay: '500ms', multiplier: 2, jitter: 0.2, max_delay: '30s' };
