import { GrpcCode, SluiceError, ErrorCode } from '@sluice/errors';

/** A metric the pedantic registry refuses: at registration, or when it is collected for a scrape. */
export class MetricInconsistencyError extends SluiceError {
  readonly metric: string;
  constructor(metric: string, problem: string) {
    super(ErrorCode.METRIC_INCONSISTENT, `metric "${metric}": ${problem}`, { grpcCode: GrpcCode.INTERNAL });
    this.name = 'MetricInconsistencyError';
    this.metric = metric;
  }
}
