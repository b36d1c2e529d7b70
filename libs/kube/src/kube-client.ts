import type { Lifecycle, ShutdownOptions } from '@sluice/lifecycle';
// One Kubernetes client per process: the loaded configuration, typed API clients made once, and
// the shared informers (one per resource path + selectors, whoever asks). Its state is the worst
// of its informers'; its readiness job reports it without taking the process out of service.
import type { Job } from '@sluice/jobs';
import { silentLogger, type ApiState } from './api-state.js';
import type { BackoffConfig } from '@sluice/clients';
import { k8s } from './k8s.js';
import { loadKubeConfig, type LoadedKubeConfig, type LoadKubeConfigOptions } from './kube-config.js';
import { informerKey, SharedInformer, type InformerSpec, type ListFn } from './shared-informer.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface KubeClientOptions {
  logger?: Logger;
  backoff?: Partial<BackoffConfig>;
  /** Watch inactivity timeout; default http_client.timeout, or 60 s. */
  watchIdleTimeoutMs?: number;
}

type ApiClass<T> = new (config: k8s.Configuration) => T;

export class KubeClient implements Lifecycle {
  readonly name = 'kubernetes-client';
  readonly kc: k8s.KubeConfig;
  private readonly informers = new Map<string, SharedInformer<k8s.KubernetesObject>>();
  private readonly apis = new Map<unknown, unknown>();
  private started = false;
  private readonly logger: Logger;
  private readonly stateListeners = new Set<(s: ApiState) => void>();
  private lastState: ApiState = 'connecting';

  constructor(readonly loaded: LoadedKubeConfig, private readonly opts: KubeClientOptions = {}) {
    this.kc = loaded.kc;
    this.logger = opts.logger ?? silentLogger;
  }

  static load(config: LoadKubeConfigOptions, opts: KubeClientOptions = {}): KubeClient {
    return new KubeClient(loadKubeConfig(config), opts);
  }

  /** A typed API client (CoreV1Api, CustomObjectsApi, …), made once per class. */
  api<T>(cls: ApiClass<T>): T {
    let a = this.apis.get(cls) as T | undefined;
    if (!a) {
      a = this.kc.makeApiClient(cls as unknown as new (config: k8s.Configuration) => T & k8s.ApiType) as T;
      this.apis.set(cls, a);
    }
    return a;
  }

  /** Per-request options: bounded by http_client.timeout, with `headers` set (e.g. a patch's Content-Type). */
  requestOptions(headers: Record<string, string> = {}): k8s.ConfigurationOptions | undefined {
    const ms = this.loaded.requestTimeoutMs;
    if (ms <= 0 && Object.keys(headers).length === 0) return undefined;
    return {
      middleware: [{
        pre: (ctx: k8s.RequestContext) => {
          if (ms > 0) ctx.setSignal(AbortSignal.timeout(ms));
          for (const [k, v] of Object.entries(headers)) ctx.setHeaderParam(k, v);
          return new k8s.Observable(Promise.resolve(ctx));
        },
        post: (res: k8s.ResponseContext) => new k8s.Observable(Promise.resolve(res)),
      }],
      middlewareMergeStrategy: 'append',
    };
  }

  /** The shared informer of `spec`, made on first use; `list` is used only by the first caller. */
  informer<T extends k8s.KubernetesObject>(spec: InformerSpec, list: ListFn<T>): SharedInformer<T> {
    const key = informerKey(spec);
    let inf = this.informers.get(key) as SharedInformer<T> | undefined;
    if (!inf) {
      inf = new SharedInformer<T>(this.kc, spec, list, {
        logger: this.logger,
        backoff: this.opts.backoff,
        watchIdleTimeoutMs: this.opts.watchIdleTimeoutMs ?? (this.loaded.requestTimeoutMs > 0 ? this.loaded.requestTimeoutMs : 60_000),
        onStateChange: (s) => {
          // The API answers again: the informers still waiting out their backoff try now.
          if (s === 'connected') for (const other of this.informers.values()) if (other.state() === 'unavailable') other.retryNow();
          this.emitState();
        },
      });
      this.informers.set(key, inf as unknown as SharedInformer<k8s.KubernetesObject>);
      if (this.started) inf.start();
    }
    return inf;
  }

  informerCount(): number {
    return this.informers.size;
  }

  /** `unavailable` if any informer is, `connected` if all are (or there are none after start), else `connecting`. */
  state(): ApiState {
    const states = [...this.informers.values()].map((i) => i.state());
    if (states.includes('unavailable')) return 'unavailable';
    if (states.length > 0 && states.every((s) => s === 'connected')) return 'connected';
    return states.length === 0 && this.started ? 'connected' : 'connecting';
  }

  onStateChange(cb: (s: ApiState) => void): () => void {
    this.stateListeners.add(cb);
    return () => this.stateListeners.delete(cb);
  }

  private emitState(): void {
    const s = this.state();
    if (s === this.lastState) return;
    this.lastState = s;
    if (s === 'connected') this.logger.info('connected to the Kubernetes API', { server: this.loaded.server });
    for (const cb of this.stateListeners) cb(s);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    await Promise.all([...this.informers.values()].map((i) => i.start()));
  }

  /** Stops every informer; the client may be started again (the process's parts share it). */
  async shutdown(opts?: ShutdownOptions): Promise<void> {
    this.started = false;
    await Promise.all([...this.informers.values()].map((i) => i.shutdown(opts)));
  }

  /** The readiness verdict for the current state (the job's answer, also for pushing at a state change). */
  readinessStatus(opts: { failWhenUnavailable?: boolean } = {}): { healthy: boolean; message: string; details: { state: ApiState; server: string } } {
    const state = this.state();
    const errors = [...this.informers.values()].map((i) => i.lastError()).filter((e) => e !== '');
    if (state === 'connected') return { healthy: true, message: 'Kubernetes API connected', details: { state, server: this.loaded.server } };
    return {
      healthy: opts.failWhenUnavailable !== true,
      message: `Kubernetes API ${state}${errors.length ? ` (${errors[0]})` : ''}: retrying with backoff; working from the last known objects`,
      details: { state, server: this.loaded.server },
    };
  }

  /**
   * A readiness job showing the API state (`details.state`). Healthy unless `failWhenUnavailable`:
   * a process that works from what it last saw must not leave service because the API is away.
   */
  readinessJob(opts: { name?: string; failWhenUnavailable?: boolean } = {}): Job {
    return { name: opts.name ?? 'kubernetes', run: () => this.readinessStatus(opts) };
  }
}
