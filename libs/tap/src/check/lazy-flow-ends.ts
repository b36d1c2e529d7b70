import type { FlowEndFailure, FlowEndReport, FlowEndSink } from './flow-end.js';

/**
 * A FlowEndSink whose sink is made at the first report: the gRPC client of FlowEnd (and the
 * loader of its service definition) is loaded only by a tap whose agent measures flows (flux
 * meters), not by every tap at start. Reports made while it loads wait for it, at most
 * `maxPending` of them (more are dropped and counted); a load that fails counts the waiting
 * reports as errors and is tried again at the next report.
 */
export function lazyFlowEnds(load: () => Promise<FlowEndSink>, onFailure: (reason: FlowEndFailure) => void, maxPending = 1024): FlowEndSink {
  let sink: FlowEndSink | undefined;
  let loading = false;
  let closed = false;
  let pending: FlowEndReport[] = [];
  const start = (): void => {
    loading = true;
    load().then(
      (s) => {
        loading = false;
        if (closed) {
          s.close();
          for (let i = 0; i < pending.length; i++) onFailure('dropped');
          pending = [];
          return;
        }
        sink = s;
        const waiting = pending;
        pending = [];
        for (const flow of waiting) s.report(flow);
      },
      () => {
        loading = false;
        for (let i = 0; i < pending.length; i++) onFailure('error');
        pending = [];
      },
    );
  };
  return {
    report(flow) {
      if (sink !== undefined) {
        sink.report(flow);
        return;
      }
      if (closed || pending.length >= maxPending) {
        onFailure('dropped');
        return;
      }
      pending.push(flow);
      if (!loading) start();
    },
    close() {
      closed = true;
      sink?.close();
    },
  };
}
