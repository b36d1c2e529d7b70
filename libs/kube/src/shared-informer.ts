import { boundedShutdown, DEFAULT_SHUTDOWN_DEADLINE_MS, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
// One list+watch of a resource (path + label/field selectors) shared by every consumer in the
// process. @kubernetes/client-node's ListWatch does the list, the watch, the relist on 410 Gone
// and the reconnect after an idle timeout; it stops on any other error (the API away, a failed
// list), so this class starts a fresh ListWatch after a backoff, which lists again. Its own cache
// outlives those restarts: consumers see add/update/delete only for real changes, and `synced`
// with the complete set after every list (level-triggered consumers reconcile there).
import { Backoff, type BackoffConfig } from '@sluice/clients';
import { KUBE_RETRY_BACKOFF, silentLogger, type ApiState } from './api-state.js';
import { k8s } from './k8s.js';
import { IdleWatch } from './idle-watch.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface InformerSpec {
  /** The collection's URL path, e.g. `/apis/sluice.dev/v1alpha1/policies` or `/api/v1/namespaces/x/pods`. */
  path: string;
  labelSelector?: string;
  fieldSelector?: string;
}

export interface InformerHandler<T> {
  add?(obj: T): void;
  update?(obj: T, old: T): void;
  delete?(obj: T): void;
  /** After every complete list (start, 410 Gone, restart): every object now known. */
  synced?(objects: T[]): void;
}

export type ListFn<T extends k8s.KubernetesObject> = (selectors: { labelSelector?: string; fieldSelector?: string }) => Promise<k8s.KubernetesListObject<T>>;

export interface SharedInformerOptions {
  logger?: Logger;
  backoff?: Partial<BackoffConfig>;
  /** A watch with no data for this long is reconnected (client-node's inactivity timeout). Default 60 s. */
  watchIdleTimeoutMs?: number;
  onStateChange?: (state: ApiState) => void;
}

export function informerKey(spec: InformerSpec): string {
  return `${spec.path}?l=${spec.labelSelector ?? ''}&f=${spec.fieldSelector ?? ''}`;
}

function objKey(o: k8s.KubernetesObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

/**
 * One line for logs and readiness: client-node's ApiException message carries the whole body and
 * headers; this keeps the code and the Status message, and says what a 404 on a list usually means.
 */
export function describeError(err: unknown, path: string): string {
  const e = err as { code?: unknown; statusCode?: unknown; body?: unknown; message?: unknown };
  const code = typeof e?.code === 'number' ? e.code : typeof e?.statusCode === 'number' ? e.statusCode : undefined;
  if (code === undefined) return err instanceof Error ? err.message : String(err);
  let message = '';
  let body: unknown = e.body;
  if (typeof e.body === 'string') {
    const text = e.body;
    try {
      body = JSON.parse(text);
    } catch {
      message = text.slice(0, 200);
    }
  }
  if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') message = (body as { message: string }).message;
  if (code === 404) return `HTTP 404: ${path} is not served (is its CustomResourceDefinition installed?)${message ? `: ${message}` : ''}`;
  return `HTTP ${code}${message ? `: ${message}` : ''}`;
}

export class SharedInformer<T extends k8s.KubernetesObject> implements Lifecycle {
  private stopping: Promise<void> | undefined;
  private lw: k8s.ListWatch<T> | undefined;
  private readonly cache = new Map<string, T>();
  private readonly handlers = new Set<InformerHandler<T>>();
  private stateValue: ApiState = 'connecting';
  private readonly backoff: Backoff;
  private restartTimer: NodeJS.Timeout | undefined;
  private running = false;
  private lastErrorText = '';
  private listsDone = 0;
  private readonly logger: Logger;

  constructor(
    private readonly kc: k8s.KubeConfig,
    readonly spec: InformerSpec,
    private readonly listFn: ListFn<T>,
    private readonly opts: SharedInformerOptions = {},
  ) {
    this.backoff = new Backoff({ ...KUBE_RETRY_BACKOFF, ...opts.backoff });
    this.logger = opts.logger ?? silentLogger;
  }

  state(): ApiState {
    return this.stateValue;
  }

  lastError(): string {
    return this.lastErrorText;
  }

  /** Complete lists so far (the first, and one per relist). */
  lists(): number {
    return this.listsDone;
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  get(name: string, namespace?: string): T | undefined {
    return this.cache.get(`${namespace ?? ''}/${name}`);
  }

  /** Adds a consumer; it is told about every object already known (add, then synced if a list completed). */
  subscribe(h: InformerHandler<T>): () => void {
    this.handlers.add(h);
    for (const o of this.cache.values()) this.call(() => h.add?.(o));
    if (this.listsDone > 0) this.call(() => h.synced?.(this.list()));
    return () => this.handlers.delete(h);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.stopping = undefined;
    this.connect();
  }

  /** Stops watching (no event follows) and waits for the watch to close; it may be started again. */
  shutdown(opts?: ShutdownOptions): Promise<void> {
    this.stopping ??= boundedShutdown('informer', async () => {
      this.running = false;
      if (this.restartTimer) clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      const lw = this.lw;
      this.lw = undefined;
      await lw?.stop();
    }, opts?.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS);
    return this.stopping;
  }

  /** When waiting to reconnect, reconnects now (another informer just reached the API). */
  retryNow(): void {
    if (!this.running || this.restartTimer === undefined) return;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    this.connect();
  }

  private setState(s: ApiState): void {
    if (s === this.stateValue) return;
    this.stateValue = s;
    this.opts.onStateChange?.(s);
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.logger.warn('a Kubernetes informer handler threw', { path: this.spec.path, error: (err as Error).message });
    }
  }

  private connect(): void {
    // A watch silent for this long is ended and resumed from its resourceVersion (http_client.timeout).
    const watch = new IdleWatch(this.kc, this.opts.watchIdleTimeoutMs ?? 60_000);
    const list = async (): Promise<k8s.KubernetesListObject<T>> => {
      const result = await this.listFn({ labelSelector: this.spec.labelSelector, fieldSelector: this.spec.fieldSelector });
      // ListWatch applies the list right after this resolves; reconcile once it has.
      setImmediate(() => {
        if (this.lw !== lw) return;
        this.onListed(result.items ?? []);
      });
      return result;
    };
    const lw = new k8s.ListWatch<T>(this.spec.path, watch, list, false, this.spec.labelSelector, this.spec.fieldSelector);
    this.lw = lw;
    lw.on('add', (o) => this.lw === lw && this.onObject(o));
    lw.on('update', (o) => this.lw === lw && this.onObject(o));
    lw.on('delete', (o) => this.lw === lw && this.onDelete(o));
    lw.on('error', (err) => this.lw === lw && this.onError(err));
    void lw.start().catch((err: unknown) => this.lw === lw && this.onError(err));
  }

  private onListed(items: T[]): void {
    this.listsDone++;
    this.backoff.reset();
    this.lastErrorText = '';
    this.setState('connected');
    const seen = new Set<string>();
    for (const o of items) {
      seen.add(objKey(o));
      this.onObject(o);
    }
    for (const [k, o] of [...this.cache]) if (!seen.has(k)) this.onDelete(o);
    const all = this.list();
    for (const h of [...this.handlers]) this.call(() => h.synced?.(all));
  }

  private onObject(o: T): void {
    const k = objKey(o);
    const old = this.cache.get(k);
    if (old && old.metadata?.resourceVersion === o.metadata?.resourceVersion) return;
    this.cache.set(k, o);
    for (const h of [...this.handlers]) this.call(() => (old ? h.update?.(o, old) : h.add?.(o)));
  }

  private onDelete(o: T): void {
    const k = objKey(o);
    const old = this.cache.get(k);
    if (!old) return;
    this.cache.delete(k);
    for (const h of [...this.handlers]) this.call(() => h.delete?.(old));
  }

  private onError(err: unknown): void {
    if (!this.running) return;
    const text = describeError(err, this.spec.path);
    const first = this.stateValue !== 'unavailable';
    this.lastErrorText = text;
    this.setState('unavailable');
    const lw = this.lw;
    this.lw = undefined;
    void lw?.stop();
    const delay = this.backoff.next();
    if (first) this.logger.warn('the Kubernetes API is unavailable; keeping the last known objects and retrying', { path: this.spec.path, error: text, retry_ms: delay });
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.running) this.connect();
    }, delay);
    this.restartTimer.unref?.();
  }
}
