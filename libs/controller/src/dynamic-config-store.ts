import { onceShutdown, type Lifecycle } from '@sluice/lifecycle';
import { InvalidArgumentError, NotFoundError } from '@sluice/errors';
import type { DynamicConfig } from '@sluice/policies';
import type { ControllerEtcd } from './controller-etcd.js';
import { isPolicyName } from './policy-name.js';
import type { PolicyRegistry } from './policy-registry.js';
import { withTimeout } from './policy-store.js';
import type { Logger } from '@sluice/telemetry/logger';

/** Key of a policy's dynamic configuration posted to the API (no lease: it outlives the controller). */
export function dynamicConfigKey(ns: string, policy: string): string {
  return `${ns}/dynamic-configs/${policy}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Dynamic configurations posted to the API, kept in etcd under `<ns>/dynamic-configs/<policy>` and
 * watched (a full read, then changes, resynced after every break), so they come back after a
 * restart and follow another controller's writes. A write is checked against the policy first
 * (a 400 names each member at fault, and nothing changes), then stored, then applied.
 */
export class DynamicConfigStore implements Lifecycle {
  private watch: { shutdown(): Promise<void> } | undefined;
  private synced = false;

  constructor(
    private readonly etcd: ControllerEtcd,
    private readonly registry: PolicyRegistry,
    private readonly logger?: Logger,
  ) {}

  get prefix(): string {
    return `${this.etcd.namespace}/dynamic-configs/`;
  }

  async start(): Promise<void> {
    this.watch = this.etcd.watchPrefix(this.prefix, {
      reset: (entries) => {
        const docs = new Map<string, DynamicConfig>();
        for (const [key, value] of entries) {
          const e = this.entryOf(key, value);
          if (e !== undefined) docs.set(e.name, e.doc);
        }
        this.registry.replaceDynamicConfigs('api', docs);
        this.synced = true;
        this.logger?.info('stored dynamic configurations loaded', { count: docs.size });
      },
      put: (key, value) => {
        const e = this.entryOf(key, value);
        if (e !== undefined) this.registry.setDynamicConfig('api', e.name, e.doc);
      },
      delete: (key) => {
        const name = key.slice(this.prefix.length);
        if (isPolicyName(name)) this.registry.setDynamicConfig('api', name, undefined);
      },
    });
  }

  /** True once the stored dynamic configurations were read (after start, and after each resync). */
  isSynced(): boolean {
    return this.synced;
  }

  readonly shutdown = onceShutdown('dynamic configurations store', async () => {
    await this.watch?.shutdown();
    this.watch = undefined;
  });

  private entryOf(key: string, value: string): { name: string; doc: DynamicConfig } | undefined {
    const name = key.slice(this.prefix.length);
    if (!isPolicyName(name)) {
      this.logger?.warn('stored dynamic configuration skipped: not a policy name', { key });
      return undefined;
    }
    try {
      const doc = JSON.parse(value) as unknown;
      if (isObject(doc)) return { name, doc };
    } catch {
      // Unparsable JSON and JSON that is not an object get the one warning below.
    }
    this.logger?.warn('stored dynamic configuration is not a JSON object; ignored', { key });
    return undefined;
  }

  /** Checks, stores and applies a policy's dynamic configuration; answers the one in effect. */
  async set(name: string, doc: unknown): Promise<DynamicConfig> {
    const problems = this.registry.checkDynamicConfig(name, doc);
    if (problems.length > 0) {
      const [first] = problems;
      const more = problems.length > 1 ? `; ${problems.slice(1).map((p) => `${p.path}: ${p.message}`).join('; ')}` : '';
      throw new InvalidArgumentError(`${first.path}: ${first.message}${more}`, first.path);
    }
    const value = doc as DynamicConfig;
    await withTimeout(this.etcd.put(dynamicConfigKey(this.etcd.namespace, name), JSON.stringify(value)), `storing the dynamic configuration of ${name}`);
    this.registry.setDynamicConfig('api', name, value);
    return this.registry.dynamicConfigOf(name) ?? value;
  }

  /** The dynamic configuration in effect; NOT_FOUND when there is none. */
  get(name: string): DynamicConfig {
    const doc = this.registry.dynamicConfigOf(name);
    if (doc === undefined) throw new NotFoundError(`no dynamic configuration for policy ${JSON.stringify(name)}`);
    return doc;
  }

  /** Removes what was posted for a policy (a Policy resource's `dynamicConfig` stays). */
  async remove(name: string): Promise<void> {
    if (this.registry.dynamicConfigOf(name) === undefined) throw new NotFoundError(`no dynamic configuration for policy ${JSON.stringify(name)}`);
    await withTimeout(this.etcd.delete(dynamicConfigKey(this.etcd.namespace, name)), `deleting the dynamic configuration of ${name}`);
    this.registry.setDynamicConfig('api', name, undefined);
  }
}
