// Helpers of this lib's tests (not exported from the package).
import type { EtcdConfig } from '@sluice/config';
import { setTimeout as sleep } from 'node:timers/promises';

/** An EtcdConfig for one endpoint with `lease_ttl` and namespace `sluice`. */
export function etcdConfig(endpoint: string, leaseTtl = '60s'): EtcdConfig {
  return {
    endpoints: [endpoint],
    lease_ttl: leaseTtl,
    namespace: 'sluice',
    username: '',
    password: '',
    tls: { ca_file: '', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' },
  };
}

/** Polls `test` every 20 ms until it holds; throws `what` after `ms`. */
export async function waitFor(what: string, test: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await test()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(20);
  }
}
