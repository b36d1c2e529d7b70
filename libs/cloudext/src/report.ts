import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { CloudExtensionConfig } from '@sluice/config';

export interface PolicyInfo { name: string; hash: string }
export interface ServiceInfo { name: string; control_points: string[] }

/** What the process knows of itself at the time of a heartbeat. */
export interface HeartbeatState {
  /** The policies this process enforces (agent) or runs (controller). */
  policies(): PolicyInfo[];
  /** The services seen with flows (agent); the controller has none. */
  services(): ServiceInfo[];
}

/** Who the process is, for every heartbeat of its run. */
export interface HeartbeatIdentity {
  service: 'sluice-agent' | 'sluice-controller';
  version: string;
  /** The agent's group; empty for the controller. */
  agentGroup: string;
  hostname?: string;
}

/** sluice.cloudext.v1.ReportRequest, in the form of the proto loader (snake_case, Timestamp as seconds and nanos). */
export interface ReportRequest {
  service: string;
  version: string;
  hostname: string;
  instance_id: string;
  agent_group: string;
  controller_id: string;
  installation_mode: string;
  policies: PolicyInfo[];
  services: ServiceInfo[];
  sequence: number;
  sent_at: { seconds: number; nanos: number };
}

/** Builds the successive heartbeats of one run of the process. */
export class ReportBuilder {
  private readonly instanceId = randomUUID();
  private readonly host: string;

  constructor(
    private readonly identity: HeartbeatIdentity,
    private readonly cloud: Pick<CloudExtensionConfig, 'controller_id' | 'installation_mode'>,
    private readonly state: HeartbeatState,
  ) {
    this.host = identity.hostname ?? hostname();
  }

  build(sequence: number, nowMs = Date.now()): ReportRequest {
    const policies = dedupe(this.state.policies(), (p) => `${p.name}\u0000${p.hash}`).sort((a, b) => a.name.localeCompare(b.name));
    const services = this.state.services().sort((a, b) => a.name.localeCompare(b.name));
    return {
      service: this.identity.service,
      version: this.identity.version,
      hostname: this.host,
      instance_id: this.instanceId,
      agent_group: this.identity.agentGroup,
      controller_id: this.cloud.controller_id,
      installation_mode: this.cloud.installation_mode,
      policies,
      services,
      sequence,
      sent_at: { seconds: Math.floor(nowMs / 1000), nanos: (nowMs % 1000) * 1_000_000 },
    };
  }
}

function dedupe<T>(items: T[], key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** The services of control-point entries, each with its control points, sorted. */
export function servicesOf(entries: ReadonlyArray<{ service: string; controlPoint: string }>): ServiceInfo[] {
  const by = new Map<string, Set<string>>();
  for (const e of entries) {
    if (e.service === '') continue;
    let set = by.get(e.service);
    if (set === undefined) by.set(e.service, (set = new Set()));
    set.add(e.controlPoint);
  }
  return [...by].map(([name, cps]) => ({ name, control_points: [...cps].sort() }));
}
