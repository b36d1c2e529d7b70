import { onceShutdown, type Lifecycle, type ShutdownOptions } from '@sluice/lifecycle';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import type { ProfilersConfig } from '../config.js';
import { profilersRouter } from '../profilers/router.js';
import type { TelemetryPipeline } from './pipeline.js';
import { GrpcCode } from '@sluice/errors';

import type { PortsConfig } from '@sluice/config';

/** `otel.ports`: each port that is not 0 is served (all interfaces unless `host` says otherwise). */
export type { PortsConfig } from '@sluice/config';

export type PortName = keyof PortsConfig;

export interface TelemetryPortsOptions {
  ports: PortsConfig;
  pipeline: TelemetryPipeline;
  profilers: ProfilersConfig;
  service: string;
  /** Bind address; default all interfaces. */
  host?: string;
  now?: () => number;
}

export interface TelemetryPorts extends Lifecycle {
  /** The bound port of each served one (the configured number, or the one picked for 0 in tests). */
  readonly bound: Readonly<Partial<Record<PortName, number>>>;
  /** Closes the ports' servers. */
  shutdown(opts?: ShutdownOptions): Promise<void>;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`);
}

/** `debug_port`: GET /metrics, the pipeline's own meter in the Prometheus text format. */
function debugHandler(pipeline: TelemetryPipeline): http.RequestListener {
  return (req, res) => {
    if (req.method === 'GET' && (req.url ?? '').split('?')[0] === '/metrics') {
      pipeline.debugReader.getMetricsRequestHandler(req, res);
      return;
    }
    json(res, 404, { code: GrpcCode.NOT_FOUND, message: `no route ${req.method} ${req.url}`, details: [] });
  };
}

/** `health_check_port`: GET / answers 200 while every exporter's last export succeeded, else 503. */
function healthHandler(pipeline: TelemetryPipeline, startedMs: number, now: () => number): http.RequestListener {
  return (req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/') {
      json(res, 404, { code: GrpcCode.NOT_FOUND, message: `no route ${req.method} ${req.url}`, details: [] });
      return;
    }
    const healthy = pipeline.exporters.every((e) => e.healthy);
    json(res, healthy ? 200 : 503, {
      status: healthy ? 'Server available' : 'Server not available',
      up_since: new Date(startedMs).toISOString(),
      uptime: `${Math.round((now() - startedMs) / 1000)}s`,
      exporters: pipeline.exporters.map((e) => ({ exporter: e.name, healthy: e.healthy, ...(e.lastError !== undefined && !e.healthy ? { last_error: e.lastError } : {}) })),
    });
  };
}

/** `zpages_port`: /debug/servicez (the process) and /debug/pipelinez (readers, exporters, their counts). */
function zpagesHandler(pipeline: TelemetryPipeline, service: string, startedMs: number): http.RequestListener {
  return (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === '/debug/servicez') {
      json(res, 200, { service: `sluice-${service}`, pid: process.pid, node: process.version, start_time: new Date(startedMs).toISOString(), exporting: pipeline.exporting });
      return;
    }
    if (req.method === 'GET' && path === '/debug/pipelinez') {
      json(res, 200, {
        pipelines: [{
          name: 'metrics',
          receivers: ['prom-client registry', 'pipeline meter'],
          export_interval_ms: pipeline.exportIntervalMs,
          exporters: pipeline.exporters.map((e) => e.toJSON()),
        }],
      });
      return;
    }
    json(res, 404, { code: GrpcCode.NOT_FOUND, message: `no route ${req.method} ${req.url}`, details: [] });
  };
}

function listen(server: http.Server, port: number, host: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * Serves `otel.ports`: each port that is set gets its own HTTP server. 0 is off. A port that
 * cannot be bound fails start-up (the servers already bound are closed).
 */
export async function startTelemetryPorts(opts: TelemetryPortsOptions): Promise<TelemetryPorts> {
  const now = opts.now ?? Date.now;
  const startedMs = now();
  const { ports } = opts;
  // Each key read by name: what it serves, on which port.
  const handlers: Array<[PortName, number, () => http.RequestListener]> = [
    ['debug_port', ports.debug_port, () => debugHandler(opts.pipeline)],
    ['health_check_port', ports.health_check_port, () => healthHandler(opts.pipeline, startedMs, now)],
    ['pprof_port', ports.pprof_port, () => express().disable('x-powered-by').use(profilersRouter({ ...opts.profilers, register_http_routes: true }))],
    ['zpages_port', ports.zpages_port, () => zpagesHandler(opts.pipeline, opts.service, startedMs)],
  ];
  const servers: http.Server[] = [];
  const bound: Partial<Record<PortName, number>> = {};
  try {
    for (const [name, port, handler] of handlers) {
      if (port === 0) continue;
      const server = http.createServer(handler());
      servers.push(server);
      bound[name] = await listen(server, port, opts.host);
    }
  } catch (err) {
    await Promise.all(servers.map(close));
    throw err;
  }
  return { bound, shutdown: onceShutdown('telemetry ports', async () => { await Promise.all(servers.map(close)); }) };
}
