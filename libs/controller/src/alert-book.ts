import type { RaisedAlert } from '@sluice/policies';

/** An alert as Alertmanager's API v2 takes it (`POST /api/v2/alerts`) and `GET /v1/alerts` lists it. */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** RFC 3339. */
  startsAt: string;
  /** RFC 3339: when Alertmanager considers it resolved unless it is sent again. */
  endsAt: string;
  generatorURL: string;
}

/** Where the alerts to send go, by key (the same key: the same alert, a newer state). */
export type AlertOutlet = (key: string, alert: PostableAlert) => void;

export interface AlertBookOptions {
  /** Epoch milliseconds; default Date.now. */
  now?: () => number;
  /** Receives each alert raised (every time: its `endsAt` moves on) and, once, each alert resolved. */
  send?: AlertOutlet;
  /** Host in the alerts' generator URL (`http://<host>/<policy>/<alert name>`). */
  host?: string;
}

interface Entry {
  readonly key: string;
  readonly labels: Record<string, string>;
  readonly startsAtMs: number;
  endsAtMs: number;
  readonly generatorURL: string;
}

/** The labels Alertmanager identifies an alert by: the alerter's, `alertname`, `severity`, `alert_channels`. */
export function alertLabels(alert: RaisedAlert): Record<string, string> {
  const labels: Record<string, string> = { ...alert.labels, alertname: alert.name, severity: alert.severity };
  if (alert.channels.length > 0) labels.alert_channels = alert.channels.join(',');
  return labels;
}

function keyOf(labels: Record<string, string>): string {
  return JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
}

/**
 * The controller's active alerts. An alert raised is active from its first tick until
 * `resolveTimeoutMs` after the last tick that raised it; raised again after that, it starts anew.
 * Each raise is sent with the `endsAt` it has then, so Alertmanager resolves it by itself if nothing
 * follows; a resolved alert is sent once more (its `endsAt` past) and leaves the list.
 */
export class AlertBook {
  private readonly active = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly host: string;
  private send: AlertOutlet;

  constructor(opts: AlertBookOptions = {}) {
    this.now = opts.now ?? Date.now;
    this.send = opts.send ?? (() => undefined);
    this.host = opts.host ?? 'sluice-controller';
  }

  /** Sends from now on to `send`. */
  setOutlet(send: AlertOutlet): void {
    this.send = send;
  }

  raise(alert: RaisedAlert): void {
    const now = this.now();
    const labels = alertLabels(alert);
    const key = keyOf(labels);
    let entry = this.active.get(key);
    if (entry !== undefined && entry.endsAtMs <= now) {
      // its time was up before this raise: it resolved, and this one fires anew
      this.resolve(entry);
      entry = undefined;
    }
    if (entry === undefined) {
      const policy = labels.policy_name ?? '';
      entry = {
        key, labels, startsAtMs: now, endsAtMs: now + alert.resolveTimeoutMs,
        generatorURL: `http://${this.host}/${encodeURIComponent(policy)}/${encodeURIComponent(alert.name)}`,
      };
      this.active.set(key, entry);
    } else {
      entry.endsAtMs = Math.max(entry.endsAtMs, now + alert.resolveTimeoutMs);
    }
    this.send(key, postable(entry));
  }

  /** Resolves the alerts whose time is up; answers how many. */
  sweep(): number {
    const now = this.now();
    let n = 0;
    for (const entry of this.active.values()) {
      if (entry.endsAtMs > now) continue;
      this.resolve(entry);
      n++;
    }
    return n;
  }

  /** The active alerts, oldest first. */
  list(): PostableAlert[] {
    this.sweep();
    return [...this.active.values()].sort((a, b) => a.startsAtMs - b.startsAtMs).map(postable);
  }

  get size(): number {
    return this.active.size;
  }

  private resolve(entry: Entry): void {
    this.active.delete(entry.key);
    this.send(entry.key, postable(entry));
  }
}

function postable(e: Entry): PostableAlert {
  return {
    labels: { ...e.labels },
    annotations: {},
    startsAt: new Date(e.startsAtMs).toISOString(),
    endsAt: new Date(e.endsAtMs).toISOString(),
    generatorURL: e.generatorURL,
  };
}
