import type { LabelMatcher } from '@sluice/selectors';
import type { Classifier, FlowComponent, FluxMeter, Limiter } from './component.js';

export const ANY_SERVICE = 'any';

/** One registration: a component, the matcher of its selector (undefined: all flows). */
export interface Entry<C> {
  readonly component: C;
  readonly matcher: LabelMatcher | undefined;
}

/** The components that apply to flows of one (control point, services). */
export interface ComponentSet {
  readonly classifiers: readonly Entry<Classifier>[];
  readonly fluxMeters: readonly Entry<FluxMeter>[];
  /** Limiters by the group of their kind, in the order the groups run (samplers, rate limiters, schedulers). */
  readonly limiterGroups: readonly (readonly Entry<Limiter>[])[];
  /** A limiter appears in more than one entry (the engine then runs it once). */
  readonly repeatsLimiter: boolean;
  readonly empty: boolean;
}

export interface Registration {
  readonly controlPoint: string;
  readonly service: string;
  readonly entry: Entry<FlowComponent>;
}

function buildSet(entries: readonly Entry<FlowComponent>[]): ComponentSet {
  const classifiers: Entry<Classifier>[] = [];
  const fluxMeters: Entry<FluxMeter>[] = [];
  const groups = new Map<number, Entry<Limiter>[]>();
  const seen = new Set<FlowComponent>();
  let repeatsLimiter = false;
  for (const e of entries) {
    const c = e.component;
    if (c.kind === 'classifier') classifiers.push(e as Entry<Classifier>);
    else if (c.kind === 'flux_meter') fluxMeters.push(e as Entry<FluxMeter>);
    else {
      if (seen.has(c)) repeatsLimiter = true;
      seen.add(c);
      const group = groups.get(c.kind.group);
      if (group === undefined) groups.set(c.kind.group, [e as Entry<Limiter>]);
      else group.push(e as Entry<Limiter>);
    }
  }
  // Groups in the order their kinds say (samplers, rate limiters, schedulers).
  const limiterGroups = [...groups.keys()].sort((a, b) => a - b).map((g) => groups.get(g) as Entry<Limiter>[]);
  return { classifiers, fluxMeters, limiterGroups, repeatsLimiter, empty: entries.length === 0 };
}

export const EMPTY_SET: ComponentSet = buildSet([]);

/**
 * The components of one control point, by service, with the sets a flow
 * needs computed ahead: for a flow of one service, its components and the
 * `any` ones; for several services, computed once per services array (the
 * discovery cache hands out the same array for the same IP).
 */
export class ControlPointComponents {
  private readonly byService = new Map<string, Entry<FlowComponent>[]>();
  private readonly single = new Map<string, ComponentSet>();
  private anyOnly: ComponentSet = EMPTY_SET;
  private multi = new WeakMap<readonly string[], ComponentSet>();

  constructor(registrations: readonly Registration[]) {
    for (const r of registrations) {
      let list = this.byService.get(r.service);
      if (list === undefined) {
        list = [];
        this.byService.set(r.service, list);
      }
      list.push(r.entry);
    }
    const anyEntries = this.byService.get(ANY_SERVICE) ?? [];
    this.anyOnly = buildSet(anyEntries);
    for (const [service, list] of this.byService) {
      if (service === ANY_SERVICE) continue;
      this.single.set(service, buildSet([...list, ...anyEntries]));
    }
  }

  /** The set for a flow of these services. */
  setFor(services: readonly string[]): ComponentSet {
    if (services.length === 0) return this.anyOnly;
    if (services.length === 1) return this.single.get(services[0]) ?? this.anyOnly;
    let set = this.multi.get(services);
    if (set === undefined) {
      const entries: Entry<FlowComponent>[] = [];
      for (const s of services) {
        if (s === ANY_SERVICE) continue;
        for (const e of this.byService.get(s) ?? []) if (!entries.includes(e)) entries.push(e);
      }
      for (const e of this.byService.get(ANY_SERVICE) ?? []) entries.push(e);
      set = buildSet(entries);
      this.multi.set(services, set);
    }
    return set;
  }
}
