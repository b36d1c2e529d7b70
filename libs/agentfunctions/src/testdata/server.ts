/** Tests only: a loopback server configuration with the documented defaults, and a bounded wait. */
export const TEST_SERVER_CONFIG = {
  listener: { addr: '127.0.0.1:0', keep_alive: '180s', network: 'tcp' as const },
  grpc: { connection_timeout: '120s', enable_reflection: false, latency_buckets_ms: [10, 100, 1000] },
  http: { disable_http_keep_alives: false, idle_timeout: '30s', latency_buckets_ms: [10, 100, 1000], max_header_bytes: 1048576, read_header_timeout: '10s', read_timeout: '10s', write_timeout: '45s' },
  grpc_gateway: { grpc_server_address: '' },
  tls: { allowed_cn: '', cert_file: '', client_ca_file: '', key_file: '', enabled: false },
};

/** Resolves when `cond` holds; throws after `ms`. */
export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 20));
  }
}
