// What a pod scaler does at one step: pure, so that bounds and cooldowns are tested on their own.

/** The object a pod scaler scales (apps/v1). */
export interface ScaleObject {
  namespace: string;
  kind: 'Deployment' | 'StatefulSet' | 'ReplicaSet';
  name: string;
}

export interface ScalePolicy {
  minReplicas: number;
  maxReplicas: number;
  /** After a scale-out, no change at all for this long. */
  scaleOutCooldownMs: number;
  /** After a scale-in, no further scale-in for this long. */
  scaleInCooldownMs: number;
  dryRun: boolean;
}

export interface ScaleHistory {
  lastScaleOutMs?: number;
  lastScaleInMs?: number;
}

export type ScalePlan =
  | { action: 'none'; reason: 'no_decision' | 'at_target' }
  | { action: 'hold'; direction: 'out' | 'in'; target: number; reason: 'cooldown' | 'dry_run'; untilMs?: number }
  | { action: 'scale'; direction: 'out' | 'in'; target: number };

/** The desired replicas bounded by the policy (rounded; NaN and negatives are never written). */
export function boundedReplicas(desired: number, p: Pick<ScalePolicy, 'minReplicas' | 'maxReplicas'>): number {
  const r = Number.isFinite(desired) ? Math.round(desired) : p.minReplicas;
  return Math.min(p.maxReplicas, Math.max(p.minReplicas, r, 0));
}

/** Compares the desired replicas with the configured ones (`/scale` spec.replicas) under the cooldowns. */
export function planScale(desired: number | undefined, configured: number, p: ScalePolicy, h: ScaleHistory, nowMs: number): ScalePlan {
  if (desired === undefined) return { action: 'none', reason: 'no_decision' };
  const target = boundedReplicas(desired, p);
  if (target === configured) return { action: 'none', reason: 'at_target' };
  const direction = target > configured ? 'out' : 'in';
  const outUntil = h.lastScaleOutMs === undefined ? undefined : h.lastScaleOutMs + p.scaleOutCooldownMs;
  const inUntil = h.lastScaleInMs === undefined ? undefined : h.lastScaleInMs + p.scaleInCooldownMs;
  const blockers = [outUntil, direction === 'in' ? inUntil : undefined].filter((t): t is number => t !== undefined && t > nowMs);
  if (blockers.length > 0) return { action: 'hold', direction, target, reason: 'cooldown', untilMs: Math.max(...blockers) };
  if (p.dryRun) return { action: 'hold', direction, target, reason: 'dry_run' };
  return { action: 'scale', direction, target };
}
