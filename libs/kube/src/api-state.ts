/** What a process knows about its connection to the Kubernetes API. */
export type ApiState = 'connecting' | 'connected' | 'unavailable';

/** What this package logs with; a winston-like logger fits. */
export interface KubeLogger {
  info(msg: string, meta?: Record<string, unknown>): void;
  warn(msg: string, meta?: Record<string, unknown>): void;
  debug?(msg: string, meta?: Record<string, unknown>): void;
}

export const silentLogger: KubeLogger = { info() {}, warn() {} };
