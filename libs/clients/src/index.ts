export type { HTTPClientConfig, GRPCClientConfig, BackoffConfig, ClientTLSConfig, ProxyConfig, ClientConfig, Header } from './config.js';
export { DEFAULT_HTTP_CLIENT_CONFIG, DEFAULT_GRPC_CLIENT_CONFIG, NO_PROXY_CONFIG } from './config.js';
export { resolveProxy, matchesNoProxy, effectiveProxy, proxyUrl } from './resolve-proxy.js';
export { createHttpClient, type HttpClient, type HttpRequestOptions, type HttpResponse } from './http-client.js';
export { grpcClientOptions, type GrpcClientOptions } from './grpc-options.js';
export { connectWithBackoff } from './connect-with-backoff.js';
export { Backoff } from './backoff.js';
export { loadClientTls, type ClientTlsMaterial } from './tls-files.js';
