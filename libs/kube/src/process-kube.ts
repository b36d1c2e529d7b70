import type { ShutdownOptions } from '@sluice/lifecycle';
import type { Logger } from '@sluice/telemetry/logger';
import type { KubeClient } from './kube-client.js';
import type { LoadKubeConfigOptions } from './kube-config.js';
import { kubeConfigSource } from './kube-config-source.js';

/**
 * The one Kubernetes client of a process, shared by everything that needs the API (service
 * discovery, peers, pod scalers, the cluster scraper). Nothing loads @kubernetes/client-node until a
 * user asks for the client; the client runs (its informers watch) while at least one user holds it.
 */
export class ProcessKube {
  private loading: Promise<KubeClient> | undefined;
  private holders = 0;

  constructor(private readonly o: LoadKubeConfigOptions & { env: NodeJS.ProcessEnv; logger: Logger }) {}

  /** Whether a Kubernetes API is configured here: in a pod, or a kubeconfig (KUBECONFIG or ~/.kube/config). */
  available(): boolean {
    return kubeConfigSource({ env: this.o.env, ...(this.o.homeDir !== undefined ? { homeDir: this.o.homeDir } : {}) }) !== undefined;
  }

  /** The process's client, loaded at the first call (a bad kubeconfig rejects with KubeConfigError). */
  client(): Promise<KubeClient> {
    this.loading ??= import('./kube-client.js').then(({ KubeClient }) =>
      KubeClient.load({ env: this.o.env, ...(this.o.httpClient !== undefined ? { httpClient: this.o.httpClient } : {}), ...(this.o.homeDir !== undefined ? { homeDir: this.o.homeDir } : {}) }, { logger: this.o.logger }));
    return this.loading;
  }

  /** The client, started if it was not running; `release` it when done. */
  async hold(): Promise<KubeClient> {
    const c = await this.client();
    if (this.holders++ === 0) await c.start();
    return c;
  }

  /** One holder is done; the last one shuts down the client's informers (and the promise waits for it). */
  async release(opts?: ShutdownOptions): Promise<void> {
    if (this.holders === 0) return;
    if (--this.holders === 0) await (await this.loading)?.shutdown(opts);
  }
}
