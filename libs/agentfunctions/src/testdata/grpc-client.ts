import type { GRPCClientConfig } from '@sluice/clients';

export const TEST_GRPC_CLIENT: GRPCClientConfig = {
  insecure: true, min_connection_timeout: '1s', use_proxy: false,
  backoff: { base_delay: '50ms', jitter: 0.2, max_delay: '200ms', multiplier: 1.6 },
  tls: { ca_file: '', cert_file: '', insecure_skip_verify: false, key_file: '', key_log_file: '' },
};
