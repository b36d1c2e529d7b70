// Who holds an object's Lease: the rules of taking, renewing and taking over, on any LeaseApi
// (the Kubernetes one is in object-lease.ts, which loads @kubernetes/client-node).
import type { ScaleObject } from './scale-plan.js';

export interface LeaseRecord {
  holder?: string;
  renewMs?: number;
  durationS?: number;
  transitions?: number;
  resourceVersion?: string;
}

/** Reads, creates and updates one Lease; the Kubernetes implementation is below. */
export interface LeaseApi {
  /** undefined when there is none. */
  read(namespace: string, name: string): Promise<LeaseRecord | undefined>;
  /** Creates (no resourceVersion) or replaces (with it); false when someone else wrote first (409). */
  write(namespace: string, name: string, record: LeaseRecord): Promise<boolean>;
}

/** The Lease's name for an object: `sluice-pod-scaler-<kind>-<name>`, within 253 characters. */
export function leaseName(o: ScaleObject): string {
  return `sluice-pod-scaler-${o.kind.toLowerCase()}-${o.name}`.slice(0, 253).replace(/[-.]+$/, '');
}

/** Whether `me` holds the Lease after this attempt (taking or renewing it as needed). */
export async function holdLease(api: LeaseApi, o: ScaleObject, me: string, durationS: number, nowMs: number): Promise<boolean> {
  return holdNamedLease(api, o.namespace, leaseName(o), me, durationS, nowMs);
}

/** holdLease for a Lease named by the caller (one per agent group for the Kubernetes scraper, for example). */
export async function holdNamedLease(api: LeaseApi, namespace: string, name: string, me: string, durationS: number, nowMs: number): Promise<boolean> {
  const cur = await api.read(namespace, name);
  if (cur === undefined) return api.write(namespace, name, { holder: me, renewMs: nowMs, durationS, transitions: 0 });
  const expired = cur.renewMs === undefined || cur.renewMs + (cur.durationS ?? durationS) * 1000 < nowMs;
  if (cur.holder !== me && cur.holder && !expired) return false;
  const transitions = (cur.transitions ?? 0) + (cur.holder === me ? 0 : 1);
  return api.write(namespace, name, { holder: me, renewMs: nowMs, durationS, transitions, ...(cur.resourceVersion ? { resourceVersion: cur.resourceVersion } : {}) });
}
