import { parseBaggage } from './baggage.js';
import { GRPC_METHOD_LABEL, GRPC_SERVICE_LABEL, grpcServiceMethod, isGrpcContentType } from './grpc-labels.js';
import { httpFlavor } from './http-flavor.js';
import type { HttpRequest__Output } from '@sluice/proto';

export const HEADER_LABEL_PREFIX = 'http.request.header.';

export { GRPC_METHOD_LABEL, GRPC_SERVICE_LABEL, grpcServiceMethod, isGrpcContentType };

function setLabel(labels: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(labels, key, { value, enumerable: true, writable: true, configurable: true });
}

/** `http.request.header.<name>` for a header name: lower-cased, `-` → `_`. */
export function headerLabelKey(name: string): string {
  return HEADER_LABEL_PREFIX + name.toLowerCase().replaceAll('-', '_');
}

/**
 * The flow labels of an HTTP request: the entries of a W3C `baggage` header,
 * then `http.request.header.*` for each header (pseudo-headers such as
 * `:authority` skipped), then `http.method`, `http.target`, `http.host`,
 * `http.scheme`, `http.flavor`, `http.request_content_length`, and for a
 * gRPC call (content type application/grpc, path `/package.Service/Method`)
 * `grpc.service` and `grpc.method`; a later source wins over an earlier one
 * for the same key, so baggage cannot pretend to be the request's method.
 */
export function httpFlowLabels(req: Partial<HttpRequest__Output> | null | undefined): Record<string, string> {
  const labels: Record<string, string> = {};
  if (req === null || req === undefined) return labels;
  const headers = req.headers;
  let authority: string | undefined;
  let grpc = false;
  if (headers !== null && headers !== undefined && typeof headers === 'object') {
    const names = Object.keys(headers);
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const value = headers[name];
      if (typeof value !== 'string') continue;
      if (name.charCodeAt(0) === 0x3a /* : */) {
        if (name === ':authority') authority = value;
        continue;
      }
      if (name.length === 7 && name.toLowerCase() === 'baggage') parseBaggage(value, labels);
      else if (name.length === 12 && name.toLowerCase() === 'content-type') grpc = isGrpcContentType(value);
    }
    for (let i = 0; i < names.length; i++) {
      const name = names[i] as string;
      const value = headers[name];
      if (typeof value !== 'string' || name.length === 0 || name.charCodeAt(0) === 0x3a) continue;
      setLabel(labels, headerLabelKey(name), value);
    }
  }
  if (typeof req.method === 'string' && req.method !== '') labels['http.method'] = req.method;
  if (typeof req.path === 'string' && req.path !== '') {
    labels['http.target'] = req.path;
    const call = grpc ? grpcServiceMethod(req.path) : undefined;
    if (call !== undefined) {
      labels[GRPC_SERVICE_LABEL] = call.service;
      labels[GRPC_METHOD_LABEL] = call.method;
    }
  }
  let host = typeof req.host === 'string' && req.host !== '' ? req.host : authority;
  if (host === undefined && headers !== null && headers !== undefined && typeof headers.host === 'string') host = headers.host;
  if (host !== undefined && host !== '') labels['http.host'] = host;
  if (typeof req.scheme === 'string' && req.scheme !== '') labels['http.scheme'] = req.scheme;
  const flavor = typeof req.protocol === 'string' ? httpFlavor(req.protocol) : undefined;
  if (flavor !== undefined) labels['http.flavor'] = flavor;
  if (typeof req.size === 'number' && Number.isFinite(req.size) && req.size >= 0) {
    labels['http.request_content_length'] = String(req.size);
  }
  return labels;
}
