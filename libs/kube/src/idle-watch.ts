// A client-node Watch with an inactivity timeout. client-node 1.4's Watch never times a watch out
// (it builds a 30 s signal and then drops it), so a watch whose connection goes silent without
// closing would hang forever. This one ends the watch cleanly (done(null), so ListWatch resumes it
// from its resourceVersion) when no event arrived for `idleMs`, and aborts the request.
import { k8s } from './k8s.js';

type WatchCallback = Parameters<k8s.Watch['watch']>[2];
type WatchDone = Parameters<k8s.Watch['watch']>[3];

export class IdleWatch extends k8s.Watch {
  constructor(
    config: k8s.KubeConfig,
    readonly idleMs: number,
  ) {
    super(config);
  }

  override async watch(path: string, queryParams: Record<string, string | number | boolean | undefined>, callback: WatchCallback, done: WatchDone): Promise<AbortController> {
    let finished = false;
    // Set once the request is made; finish() may run before that (a failed connect).
    const req: { controller?: AbortController } = {};
    let timer: NodeJS.Timeout | undefined;
    const finish = (err: unknown): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      req.controller?.abort();
      done(err);
    };
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish(null), this.idleMs);
      timer.unref();
    };
    arm();
    let controller: AbortController;
    try {
      controller = await super.watch(
        path,
        queryParams,
        (phase, apiObj, watchObj) => {
          if (finished) return;
          arm();
          callback(phase, apiObj, watchObj);
        },
        finish,
      );
    } catch (err) {
      // The request could not be built (e.g. the kubeconfig's TLS settings): no done call, as client-node.
      finished = true;
      clearTimeout(timer);
      throw err;
    }
    // Timed out (or ended) while connecting: the request is no longer wanted.
    req.controller = controller;
    if (finished) controller.abort();
    return controller;
  }
}
