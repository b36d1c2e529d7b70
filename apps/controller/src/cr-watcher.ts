import type { PolicySink } from '@sluice/controller';
import type { Component } from '@sluice/runtime';

export interface CrWatcherLogger {
  warn(msg: string, meta?: Record<string, unknown>): void;
}

/**
 * The Policy custom resource watcher (`policies.cr_watcher.enabled`), feeding the
 * controller's PolicySink. The watcher itself belongs to @sluice/kube; until it
 * exports one, this component only says that custom resources are not watched.
 */
export function policyCrWatcherComponent(sink: PolicySink, logger: CrWatcherLogger): Component {
  void sink;
  return {
    name: 'policy-cr-watcher',
    start() {
      logger.warn('policies.cr_watcher.enabled is set, but this build has no Policy custom resource watcher; policies come from the API only');
    },
    shutdown() {},
  };
}
