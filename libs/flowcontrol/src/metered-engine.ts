import type { Registry } from 'prom-client';
import type { CancelSource } from './call-cancellation.js';
import type { CheckDecision } from './decision.js';
import { Engine, type EngineOptions } from './engine.js';
import type { FlowRequest } from './flow-request.js';
import { decisionMetrics, type DecisionMetrics } from './flowcontrol-metrics.js';

/** The engine, every decision of which is counted under Aperture's flow-control metric names (flowcontrol-metrics.ts). */
export class MeteredEngine extends Engine {
  private readonly decisionMetrics: DecisionMetrics;

  constructor(opts: EngineOptions & { registry: Registry }) {
    super(opts);
    this.decisionMetrics = decisionMetrics(opts.registry, this.agentGroup);
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
