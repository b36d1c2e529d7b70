// Whether and where this process finds a Kubernetes configuration, without loading
// @kubernetes/client-node (the processes ask this before deciding to load the client at all).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SluiceError, GrpcCode, ErrorCode } from '@sluice/errors';

export type KubeConfigSource = 'in-cluster' | 'kubeconfig' | 'default-file';

/** A kubeconfig that cannot be read or names no cluster. */
export class KubeConfigError extends SluiceError {
  constructor(message: string, cause?: unknown) {
    super(ErrorCode.KUBE_CONFIG, message, { grpcCode: GrpcCode.FAILED_PRECONDITION, cause });
    this.name = 'KubeConfigError';
  }
}

export function inPod(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.KUBERNETES_SERVICE_HOST ?? '') !== '';
}

/** Where the configuration would come from, or undefined when there is none (a laptop without Kubernetes). */
export function kubeConfigSource(opts: { env?: NodeJS.ProcessEnv; homeDir?: string } = {}): KubeConfigSource | undefined {
  const env = opts.env ?? process.env;
  if (inPod(env)) return 'in-cluster';
  if ((env.KUBECONFIG ?? '') !== '') return 'kubeconfig';
  if (existsSync(join(opts.homeDir ?? homedir(), '.kube', 'config'))) return 'default-file';
  return undefined;
}

