/** The Check request every target of check-grpc answers, and the limiter it passes through. */
export const BENCH_CHECK_REQUEST = {
  control_point: 'bench',
  labels: { user: 'alice', 'http.method': 'GET', tier: 'gold' } as Record<string, string>,
};

/** Services the agent's static discovery gives the bench's loopback peer. */
export const BENCH_SERVICES = ['bench-svc'];

/** One token-bucket rate limiter on the bench control point that always has tokens. */
export const BENCH_LIMITERS_YAML = '- { control_point: bench, bucket_capacity: 1e12, fill_amount: 1e12, interval: 1s, label_key: user }\n';

export const CHECK_PATH = '/aperture.flowcontrol.check.v1.FlowControlService/Check';
