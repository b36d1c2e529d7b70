import type { Registry } from 'prom-client';
import type { CancelSource } from '../check/call-cancellation.js';
import type { ComponentSelector, FlowComponent } from '../check/component.js';
import type { CheckDecision } from '../check/decision.js';
import { Engine, type EngineOptions } from '../check/engine.js';
import type { FlowRequest } from '../check/flow-request.js';
import { decisionMetrics, type DecisionMetrics } from './flowcontrol-metrics.js';

/** The engine, every decision of which is counted under Aperture's flow-control metric names (flowcontrol-metrics.ts). */
export class MeteredEngine extends Engine {
  private readonly decisionMetrics: DecisionMetrics;
  /** Registrations of each limiter and classifier (one per selector): the last one removed drops its series. */
  private readonly holders = new Map<FlowComponent, number>();

  constructor(opts: EngineOptions & { registry: Registry }) {
    super(opts);
    this.decisionMetrics = decisionMetrics(opts.registry, this.agentGroup);
  }

  override register(component: FlowComponent, selector: ComponentSelector): () => void {
    const unregister = super.register(component, selector);
    if (component.kind === 'flux_meter') return unregister;
    this.holders.set(component, (this.holders.get(component) ?? 0) + 1);
    let done = false;
    return () => {
      unregister();
      if (done) return;
      done = true;
      const left = (this.holders.get(component) ?? 1) - 1;
      if (left > 0) {
        this.holders.set(component, left);
      } else {
        this.holders.delete(component);
        this.decisionMetrics.forget(component);
      }
    };
  }

  override check(request: FlowRequest, cancel?: AbortSignal | CancelSource): CheckDecision | Promise<CheckDecision> {
    const d = super.check(request, cancel);
    if (d instanceof Promise) return d.then((decided) => this.count(decided));
    return this.count(d);
  }

  private count(d: CheckDecision): CheckDecision {
    try {
      this.decisionMetrics.record(d);
    } catch {
      // counting never changes a decision
    }
    return d;
  }
}
