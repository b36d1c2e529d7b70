// The HTTP status of a failed Kubernetes API call, readable without loading all of
// @kubernetes/client-node: its ApiException lives in a module of its own (no imports), the same
// module the package's index re-exports, so `instanceof` holds for errors its clients throw.
// PodScalers needs this even when off, and an agent without Kubernetes never loads the client.
import { ApiException } from '@kubernetes/client-node/dist/gen/apis/exception.js';

/** The HTTP status of a failed API call, when it has one. */
export function apiStatus(err: unknown): number | undefined {
  return err instanceof ApiException ? (err as ApiException<unknown>).code : undefined;
}
