// The status the Policy CR watcher writes on a Policy custom resource: `status` (uploading,
// uploaded, failed), `message`, `observedGeneration`, the applied `hash`, and a `Ready`
// condition whose lastTransitionTime moves only when its status does. Comparing ignores
// lastTransitionTime, so an unchanged outcome is never written twice.

export type PolicyPhase = 'uploading' | 'uploaded' | 'failed';

export interface PolicyCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime: string;
}

export interface PolicyStatus {
  status?: PolicyPhase;
  message?: string;
  observedGeneration?: number;
  hash?: string;
  conditions?: PolicyCondition[];
}

export const REASONS: Record<PolicyPhase, string> = { uploading: 'PolicyUploading', uploaded: 'PolicyUploaded', failed: 'PolicyFailed' };
const READY: Record<PolicyPhase, PolicyCondition['status']> = { uploading: 'Unknown', uploaded: 'True', failed: 'False' };

/** RFC 3339 with seconds, as Kubernetes writes times. */
export function kubeTime(ms = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Longest status message written (a policy with thousands of problems would otherwise write them all). */
export const MAX_STATUS_MESSAGE_LENGTH = 4096;

function boundedMessage(message: string): string {
  if (message.length <= MAX_STATUS_MESSAGE_LENGTH) return message;
  const mark = ` … (${message.length} characters in all)`;
  return message.slice(0, MAX_STATUS_MESSAGE_LENGTH - mark.length) + mark;
}

export function desiredStatus(current: PolicyStatus | undefined, phase: PolicyPhase, fullMessage: string, generation: number, hash: string | undefined, now = kubeTime()): PolicyStatus {
  const message = boundedMessage(fullMessage);
  const prev = current?.conditions?.find((c) => c.type === 'Ready');
  const ready: PolicyCondition = {
    type: 'Ready',
    status: READY[phase],
    reason: REASONS[phase],
    message: message === '' ? phase : message,
    observedGeneration: generation,
    lastTransitionTime: prev && prev.status === READY[phase] ? prev.lastTransitionTime : now,
  };
  const others = (current?.conditions ?? []).filter((c) => c.type !== 'Ready');
  const out: PolicyStatus = { status: phase, message, observedGeneration: generation, conditions: [ready, ...others] };
  if (hash !== undefined) out.hash = hash;
  return out;
}

function comparable(s: PolicyStatus | undefined): unknown {
  if (!s) return null;
  return {
    status: s.status ?? null,
    message: s.message ?? '',
    observedGeneration: s.observedGeneration ?? null,
    hash: s.hash ?? null,
    conditions: (s.conditions ?? []).map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message, observedGeneration: c.observedGeneration ?? null })),
  };
}

export function sameStatus(a: PolicyStatus | undefined, b: PolicyStatus | undefined): boolean {
  return JSON.stringify(comparable(a)) === JSON.stringify(comparable(b));
}

/** The merge patch that turns `current` into `desired` on the status subresource (a removed hash is set to null). */
export function statusPatch(current: PolicyStatus | undefined, desired: PolicyStatus): { status: Record<string, unknown> } {
  const patch: Record<string, unknown> = { ...desired };
  if (current?.hash !== undefined && desired.hash === undefined) patch.hash = null;
  return { status: patch };
}
