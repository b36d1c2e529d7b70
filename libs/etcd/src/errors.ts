import { UnavailableError, ErrorCode } from '@sluice/errors';

/** etcd could not be reached (or did not answer in time); the operation may be retried. */
export class EtcdUnavailableError extends UnavailableError {
  constructor(message: string, cause?: unknown) {
    super(message, ErrorCode.ETCD_UNAVAILABLE, cause);
    this.name = 'EtcdUnavailableError';
  }
}
