import * as grpc from '@grpc/grpc-js';
import { createHttpClient, grpcClientOptions, type ClientConfig, type ProxyConfig } from '@sluice/clients';
import { parseDuration } from '@sluice/config';
import { serviceClient, toProto3Json } from '@sluice/proto';
import type { ReportRequest } from './report.js';

/** The header (HTTP) and metadata key (gRPC) that carry `cloudext.api_key`. */
export const API_KEY_HEADER = 'x-api-key';
/** Path of the HTTP heartbeat, after the endpoint's own path. */
export const HTTP_REPORT_PATH = '/v1/cloudext/report';
const REPORT_TYPE = 'sluice.cloudext.v1.ReportRequest';

/** Delivers one heartbeat; rejects when it was not accepted. */
export interface HeartbeatTransport {
  /** `http` or `grpc`, and where to (no key). */
  readonly kind: 'http' | 'grpc';
  readonly target: string;
  send(report: ReportRequest): Promise<void>;
  close(): Promise<void>;
}

/** Whether `endpoint` is reached over HTTP (it starts with http:// or https://); otherwise gRPC. */
export function isHttpEndpoint(endpoint: string): boolean {
  return /^https?:\/\//i.test(endpoint);
}

/** The URL of the HTTP heartbeat: the endpoint (with its path, if any) then /v1/cloudext/report. */
export function httpReportUrl(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${HTTP_REPORT_PATH}`;
  return url.toString();
}

/** The gRPC target of a host:port or a bare host name (port 443). */
export function grpcTarget(endpoint: string): string {
  return /:\d+$/.test(endpoint) ? endpoint : `${endpoint}:443`;
}

/** An error message with the key taken out, whatever the other side answered. */
function clean(message: string, apiKey: string): string {
  return apiKey === '' ? message : message.split(apiKey).join('****');
}

export function httpTransport(endpoint: string, apiKey: string, client: ClientConfig, proxy: ProxyConfig): HeartbeatTransport {
  const http = createHttpClient(client.http, proxy);
  const url = httpReportUrl(endpoint);
  return {
    kind: 'http',
    target: url,
    send: async (report) => {
      const res = await http.request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [API_KEY_HEADER]: apiKey },
        body: JSON.stringify(toProto3Json(REPORT_TYPE, report)),
      }).catch((err: unknown) => { throw new Error(clean(err instanceof Error ? err.message : String(err), apiKey)); });
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw new Error(`HTTP ${res.statusCode}: ${clean(res.body.toString('utf8').slice(0, 200), apiKey)}`);
      }
    },
    close: () => http.close(),
  };
}

export function grpcTransport(endpoint: string, apiKey: string, client: ClientConfig, proxy: ProxyConfig): HeartbeatTransport {
  const target = grpcTarget(endpoint);
  const opts = grpcClientOptions(client.grpc, target, proxy);
  const Client = serviceClient('cloudExtension');
  const stub = new Client(opts.target, opts.credentials, opts.options);
  const deadlineMs = Math.max(1000, parseDuration(client.grpc.min_connection_timeout));
  return {
    kind: 'grpc',
    target,
    send: (report) => new Promise<void>((resolve, reject) => {
      const md = new grpc.Metadata();
      md.set(API_KEY_HEADER, apiKey);
      const report_ = stub.Report as (req: ReportRequest, md: grpc.Metadata, o: grpc.CallOptions, cb: (err: grpc.ServiceError | null) => void) => void;
      report_.call(stub, report, md, { deadline: Date.now() + deadlineMs }, (err) => {
        if (err === null) resolve();
        else reject(new Error(clean(`gRPC ${grpc.status[err.code] ?? err.code}: ${err.details}`, apiKey)));
      });
    }),
    close: async () => { stub.close(); },
  };
}

/** The transport `endpoint` asks for: HTTP(S) for an http:// or https:// address, gRPC otherwise. */
export function transportFor(endpoint: string, apiKey: string, client: ClientConfig, proxy: ProxyConfig): HeartbeatTransport {
  return isHttpEndpoint(endpoint) ? httpTransport(endpoint, apiKey, client, proxy) : grpcTransport(endpoint, apiKey, client, proxy);
}
