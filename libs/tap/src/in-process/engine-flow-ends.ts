import type { FlowEnds } from '@sluice/flowcontrol';
import type { FlowEndReport, FlowEndSink } from '../check/flow-end.js';

/**
 * Flow ends handed to the agent's FlowEnds in this process, as its FlowEnd service
 * does for a separate tap: the duration the tap measured goes to the flux meters
 * (and to the schedulers that admitted the flow). Never throws.
 */
export function engineFlowEnds(flowEnds: FlowEnds): FlowEndSink {
  return {
    report(flow: FlowEndReport): void {
      try {
        flowEnds.end({ controlPoint: flow.controlPoint, flowId: flow.flowId, statusCode: flow.statusCode, durationMs: Math.max(0, flow.durationMs) });
      } catch {
        // an end that cannot be recorded is lost, as a failed FlowEnd call is
      }
    },
    shutdown: async () => undefined,
  };
}
