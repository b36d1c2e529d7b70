import type { Lifecycle } from '@sluice/lifecycle';
import { isDeepStrictEqual } from 'node:util';
import type { PrefixWatch, SluiceEtcd } from '@sluice/etcd';
import type { ComponentSelector, Engine } from '@sluice/flowcontrol';
import { compilePublishedValidators, configPrefix, decisionPrefix, type PublishedComponent, type PublishedDecision } from '@sluice/policies';
import type { Registry } from 'prom-client';
import { localTokenBucketStore } from './builders.js';
import { checkFlowKinds, FLOW_KINDS, flowKind } from './flow-kinds.js';
import type { ComponentBuilders, LiveComponent, TokenBucketStoreFactory } from './live-component.js';
import { enforcementMetrics, type EnforcementMetrics } from './metrics.js';
import { parseComponent, parseDecision } from './parse-published.js';
import type { Logger } from '@sluice/telemetry/logger';

export interface PolicyEnforcementOptions {
  /** Only the namespace and prefix watches are used. */
  etcd: Pick<SluiceEtcd, 'namespace' | 'watchPrefix'>;
  engine: Pick<Engine, 'register'>;
  /** `agent_info.agent_group`: the keys of this group only, matched exactly. */
  agentGroup: string;
  logger?: Logger;
  registry?: Registry;
  /** Where rate limiters keep their buckets; default the local store. */
  tokenBucketStore?: TokenBucketStoreFactory;
  /** Builders by kind, over those of the agent's registry (FLOW_KINDS). */
  builders?: ComponentBuilders;
  /** Most selectors of all enforced components together; default MAX_AGENT_SELECTORS. */
  maxSelectors?: number;
}

/**
 * Most selectors an agent enforces over all published components. Each
 * selector is matched against every flow at its control point: a component
 * that would take the agent past this total is refused (logged, counted in
 * `policy_selector_limit_refusals_total`) and tried again when others go.
 */
export const MAX_AGENT_SELECTORS = 1024;

/** One enforced component, for status and tests. */
export interface EnforcedComponent {
  policy_name: string;
  policy_hash: string;
  component_id: string;
  kind: PublishedComponent['kind'];
  selectors: number;
  /** The decision in force; null: none yet (pass-through). */
  decision: PublishedDecision | null;
}

/** What subscribers of {@link PolicyEnforcement.subscribe} get: an enforced component as parsed, with its decision in force. */
export interface EnforcedPublished {
  published: PublishedComponent;
  /** undefined: none yet (pass-through). */
  decision: PublishedDecision | undefined;
}

/** Called with the whole enforced state (level-triggered), not with the change. */
export type EnforcedListener = (components: readonly EnforcedPublished[]) => void;

interface Entry {
  raw: string;
  published: PublishedComponent;
  live: LiveComponent;
  unregister: () => void;
  decisionRaw: string | undefined;
  decision: PublishedDecision | undefined;
}

/** The fields that say which version of a policy a configuration belongs to; undefined when unreadable. */
function headerOf(raw: string): { policy_hash: string; policy_components: number | undefined } | undefined {
  try {
    const v = JSON.parse(raw) as { policy_hash?: unknown; policy_components?: unknown };
    if (typeof v !== 'object' || v === null || typeof v.policy_hash !== 'string') return undefined;
    const n = v.policy_components;
    return { policy_hash: v.policy_hash, policy_components: Number.isInteger(n) && (n as number) > 0 ? n as number : undefined };
  } catch {
    return undefined;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The agent side of policies: watches the configurations and decisions
 * published for this agent's group and makes the engine's registrations
 * match them, level-triggered and idempotent (every change reruns one
 * reconcile over the whole published state). A component runs in
 * pass-through until its first decision; a new decision updates it in
 * place; a new configuration replaces it (the new one is registered before
 * the old one goes); a removed key unregisters it. A value that cannot be
 * used is logged and counted, once per value, and disturbs nothing else.
 * A policy's new version is taken only whole (all its `policy_components`
 * configurations, of one policy hash); until then the last whole one stays.
 * While etcd or the controller is away the last state stays enforced; the
 * watches resync when etcd returns.
 */
export class PolicyEnforcement implements Lifecycle {
  private readonly configs = new Map<string, string>();
  private readonly decisions = new Map<string, string>();
  private readonly live = new Map<string, Entry>();
  /** Each configuration's version fields, parsed once per value. */
  private readonly headers = new Map<string, { raw: string; header: ReturnType<typeof headerOf> }>();
  /** Values already refused, so a bad value is reported once, not at every reconcile. */
  private readonly refusedConfigs = new Map<string, string>();
  private readonly refusedDecisions = new Map<string, string>();
  /** Values refused for the selector total: tried again at each reconcile (others may have gone), reported once. */
  private readonly overLimit = new Map<string, string>();
  private readonly maxSelectors: number;
  private readonly metrics: EnforcementMetrics;
  private readonly builders: ComponentBuilders;
  private readonly storeFactory: TokenBucketStoreFactory;
  private watches: PrefixWatch[] = [];
  private readonly resets = new Set<'config' | 'decision'>();
  private readonly listeners = new Set<EnforcedListener>();
  readonly configPrefix: string;
  readonly decisionPrefix: string;

  constructor(private readonly o: PolicyEnforcementOptions) {
    this.metrics = enforcementMetrics(o.registry);
    // Every published kind must have an entry in the registry: a missing one fails here, at start.
    checkFlowKinds();
    compilePublishedValidators();
    this.builders = { ...o.builders };
    this.storeFactory = o.tokenBucketStore ?? localTokenBucketStore;
    this.maxSelectors = o.maxSelectors ?? MAX_AGENT_SELECTORS;
    this.configPrefix = configPrefix(o.etcd.namespace, o.agentGroup);
    this.decisionPrefix = decisionPrefix(o.etcd.namespace, o.agentGroup);
  }

  async start(): Promise<void> {
    if (this.watches.length > 0) return;
    this.watches = [
      this.o.etcd.watchPrefix(this.configPrefix, this.handler('config', this.configs, this.configPrefix)),
      this.o.etcd.watchPrefix(this.decisionPrefix, this.handler('decision', this.decisions, this.decisionPrefix)),
    ];
  }

  /**
   * Stops watching and unregisters every published component (local limiters stay), both at once;
   * resolves when the watches have ended.
   */
  async shutdown(): Promise<void> {
    const watches = this.watches.map((w) => w.shutdown());
    this.watches = [];
    for (const e of this.live.values()) e.unregister();
    this.live.clear();
    this.updateGauge();
    await Promise.all(watches);
  }

  /** True once both prefixes were read in full at least once. */
  synced(): boolean {
    return this.resets.size === 2;
  }

  enforced(): EnforcedComponent[] {
    return [...this.live.values()].map((e) => ({
      policy_name: e.published.policy_name,
      policy_hash: e.published.policy_hash,
      component_id: e.published.component_id,
      kind: e.published.kind,
      selectors: e.published.selectors.length,
      decision: e.decision ?? null,
    })).sort((a, b) => `${a.policy_name}/${a.component_id}`.localeCompare(`${b.policy_name}/${b.component_id}`));
  }

  /**
   * Hands `listener` the enforced components at once and after every reconcile, so that other
   * parts of the agent (the pod scaler) follow the published state without a watch of their own.
   * A listener that throws is logged; enforcement and the other listeners go on. Returns the
   * unsubscribe.
   */
  subscribe(listener: EnforcedListener): () => void {
    this.listeners.add(listener);
    this.notify(listener, this.snapshot());
    return () => { this.listeners.delete(listener); };
  }

  private snapshot(): EnforcedPublished[] {
    return [...this.live.values()].map((e) => ({ published: e.published, decision: e.decision }));
  }

  private notify(listener: EnforcedListener, components: readonly EnforcedPublished[]): void {
    try {
      listener(components);
    } catch (err) {
      this.o.logger?.error('a subscriber of the enforced components failed', { error: message(err) });
    }
  }

  private handler(type: 'config' | 'decision', into: Map<string, string>, prefix: string) {
    const id = (key: string): string => key.slice(prefix.length);
    return {
      reset: (entries: Map<string, string>) => {
        into.clear();
        for (const [k, v] of entries) into.set(id(k), v);
        if (!this.resets.has(type)) this.o.logger?.info('published policies read', { type, prefix, keys: entries.size });
        this.resets.add(type);
        this.reconcile();
      },
      put: (key: string, value: string) => {
        into.set(id(key), value);
        this.reconcile();
      },
      delete: (key: string) => {
        into.delete(id(key));
        this.reconcile();
      },
    };
  }

  /**
   * The configurations to enforce: the published ones, except that a policy whose configurations
   * are not all there (fewer than their `policy_components`, or of several policy hashes: a version
   * being written in several etcd transactions) keeps the components it had.
   */
  private complete(): Map<string, string> {
    const byPolicy = new Map<string, { ids: string[]; hashes: Set<string>; want: number | undefined }>();
    for (const [id, raw] of this.configs) {
      const slash = id.indexOf('/');
      if (slash < 0) continue;
      let cached = this.headers.get(id);
      if (cached?.raw !== raw) {
        cached = { raw, header: headerOf(raw) };
        this.headers.set(id, cached);
      }
      const header = cached.header;
      if (header?.policy_components === undefined) continue;
      const p = byPolicy.get(id.slice(0, slash)) ?? { ids: [], hashes: new Set<string>(), want: header.policy_components };
      p.ids.push(id);
      p.hashes.add(header.policy_hash);
      p.want = Math.max(p.want ?? 0, header.policy_components);
      byPolicy.set(id.slice(0, slash), p);
    }
    for (const id of this.headers.keys()) if (!this.configs.has(id)) this.headers.delete(id);
    const out = new Map(this.configs);
    for (const [policy, p] of byPolicy) {
      const ownIds = [...this.configs.keys()].filter((id) => id.startsWith(`${policy}/`));
      if (p.hashes.size === 1 && ownIds.length === p.want && p.ids.length === ownIds.length) continue;
      for (const id of ownIds) out.delete(id);
      for (const [id, e] of this.live) if (id.startsWith(`${policy}/`)) out.set(id, e.raw);
      this.o.logger?.debug('policy version not complete in etcd yet; the last complete one stays', { policy, have: ownIds.length, want: p.want });
    }
    return out;
  }

  /** Makes the registrations match the published state. */
  reconcile(): void {
    const configs = this.complete();
    for (const [id, e] of this.live) {
      if (!configs.has(id)) {
        e.unregister();
        this.live.delete(id);
        this.o.logger?.info('policy component removed', { component: id, kind: e.published.kind });
      }
    }
    for (const id of this.refusedConfigs.keys()) if (!this.configs.has(id)) this.refusedConfigs.delete(id);
    for (const id of this.refusedDecisions.keys()) if (!this.decisions.has(id)) this.refusedDecisions.delete(id);
    for (const id of this.overLimit.keys()) if (!configs.has(id)) this.overLimit.delete(id);
    for (const [id, raw] of configs) {
      const current = this.live.get(id);
      if (current !== undefined && current.raw !== raw) this.takeNewHash(id, current, raw);
      if (current === undefined || current.raw !== raw) {
        if (this.refusedConfigs.get(id) === raw) continue;
        const next = this.build(id, raw);
        if (next === undefined) continue;
        current?.unregister();
        this.live.set(id, next);
        if (current !== undefined) this.metrics.replaced.inc();
        this.o.logger?.info(current === undefined ? 'policy component enforced' : 'policy component replaced', {
          component: id, kind: next.published.kind, policy_hash: next.published.policy_hash, selectors: next.published.selectors.length,
        });
      }
      this.applyDecision(id, this.live.get(id) as Entry);
    }
    this.updateGauge();
    if (this.listeners.size > 0) {
      const components = this.snapshot();
      for (const l of this.listeners) this.notify(l, components);
    }
  }

  /**
   * A configuration that differs from the live one only by its policy_hash (another part of the
   * policy changed, a capacity say) keeps the live component, its registrations and its buckets:
   * the new hash is taken in place. Anything else is left to replacement.
   */
  private takeNewHash(id: string, current: Entry, raw: string): void {
    if (current.live.setPolicyHash === undefined) return;
    const parsed = parseComponent(raw);
    if (!parsed.ok) return;
    const { policy_hash: newHash, policy_components: _newCount, ...rest } = parsed.value;
    const { policy_hash: _oldHash, policy_components: _oldCount, ...live } = current.published;
    if (!isDeepStrictEqual(rest, live)) return;
    current.live.setPolicyHash(newHash);
    current.raw = raw;
    current.published = parsed.value;
    this.o.logger?.info('policy component kept under the policy\'s new hash', { component: id, kind: parsed.value.kind, policy_hash: newHash });
  }

  private refuseConfig(id: string, raw: string, error: string): undefined {
    this.refusedConfigs.set(id, raw);
    this.metrics.malformed.inc({ type: 'config' });
    this.o.logger?.warn('published policy component refused; the others are enforced', { key: this.configPrefix + id, error });
    return undefined;
  }

  /** Whether `published` fits under the selector total with the live components (but the one it replaces). */
  private selectorsFit(id: string, published: PublishedComponent): boolean {
    let total = published.selectors.length;
    for (const [other, e] of this.live) if (other !== id) total += e.published.selectors.length;
    return total <= this.maxSelectors;
  }

  private refuseOverLimit(id: string, raw: string, published: PublishedComponent): undefined {
    if (this.overLimit.get(id) === raw) return undefined;
    this.overLimit.set(id, raw);
    this.metrics.selectorLimitRefusals.inc();
    this.o.logger?.warn('published policy component refused: the agent would enforce more selectors than it allows; the others are enforced', {
      key: this.configPrefix + id, selectors: published.selectors.length, max_selectors: this.maxSelectors,
    });
    return undefined;
  }

  private build(id: string, raw: string): Entry | undefined {
    if (id.split('/').length !== 2) return this.refuseConfig(id, raw, 'key: want <policy>/<component_id> under the group');
    const parsed = parseComponent(raw);
    if (!parsed.ok) return this.refuseConfig(id, raw, parsed.error);
    const published = parsed.value;
    if (!this.selectorsFit(id, published)) return this.refuseOverLimit(id, raw, published);
    this.overLimit.delete(id);
    const builder = this.builders[published.kind] ?? flowKind(published.kind).build;
    let live: LiveComponent;
    try {
      live = builder(published, { tokenBucketStore: this.storeFactory, ...(this.o.registry !== undefined ? { registry: this.o.registry } : {}) });
    } catch (err) {
      return this.refuseConfig(id, raw, message(err));
    }
    const undo: (() => void)[] = [];
    try {
      const component = live.component;
      for (const s of published.selectors) {
        if (component === undefined) break;
        const selector: ComponentSelector = {
          control_point: s.control_point,
          agent_group: s.agent_group ?? published.agent_group,
          ...(s.service !== undefined ? { service: s.service } : {}),
          ...(s.label_matcher !== undefined ? { label_matcher: s.label_matcher } : {}),
        };
        undo.push(this.o.engine.register(component, selector));
      }
    } catch (err) {
      for (const u of undo) u();
      return this.refuseConfig(id, raw, message(err));
    }
    return { raw, published, live, unregister: () => { for (const u of undo) u(); void live.shutdown?.(); }, decisionRaw: undefined, decision: undefined };
  }

  private applyDecision(id: string, e: Entry): void {
    const raw = this.decisions.get(id);
    if (raw === e.decisionRaw) return;
    if (raw !== undefined && this.refusedDecisions.get(id) === raw) return;
    let decision: PublishedDecision | undefined;
    if (raw !== undefined) {
      const parsed = parseDecision(raw);
      if (!parsed.ok) {
        this.refuseDecision(id, raw, parsed.error);
        return;
      }
      decision = parsed.value;
    }
    try {
      e.live.setDecision(decision);
    } catch (err) {
      // The last good decision stays in force.
      if (raw !== undefined) this.refuseDecision(id, raw, message(err));
      return;
    }
    e.decisionRaw = raw;
    e.decision = decision;
    if (decision !== undefined) this.metrics.decisionsApplied.inc({ kind: decision.kind });
    this.o.logger?.debug('policy decision applied', { component: id, decision });
  }

  private refuseDecision(id: string, raw: string, error: string): void {
    this.refusedDecisions.set(id, raw);
    this.metrics.malformed.inc({ type: 'decision' });
    this.o.logger?.warn('published decision refused; the last good one stays in force', { key: this.decisionPrefix + id, error });
  }

  private updateGauge(): void {
    const counts = new Map<string, number>(Object.keys(FLOW_KINDS).map((kind) => [kind, 0]));
    for (const e of this.live.values()) counts.set(e.published.kind, (counts.get(e.published.kind) ?? 0) + 1);
    for (const [kind, n] of counts) this.metrics.components.set({ kind }, n);
  }
}
