// Where this process's Kubernetes client points: in a pod (KUBERNETES_SERVICE_HOST set) the
// service account (KubeConfig.loadFromCluster), otherwise KUBECONFIG or ~/.kube/config. Then
// `kubernetes_client.http_client` applied as far as @kubernetes/client-node allows:
// tls.ca_file / insecure_skip_verify / cert_file / key_file override the kubeconfig's, use_proxy
// takes HTTPS_PROXY / HTTP_PROXY (honouring NO_PROXY) as the cluster's proxy, and `timeout`
// bounds list requests and the idle time of a watch (see docs/guides/kubernetes-testing.md for
// the keys client-node gives no hook for).
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { tryParseDuration, type HTTPClientConfig } from '@sluice/config';
import { k8s } from './k8s.js';
import { KubeConfigError, kubeConfigSource, type KubeConfigSource } from './kube-config-source.js';

export { KubeConfigError, inPod, kubeConfigSource, type KubeConfigSource } from './kube-config-source.js';

export interface LoadedKubeConfig {
  kc: k8s.KubeConfig;
  source: KubeConfigSource;
  /** The API server's URL. */
  server: string;
  /** From http_client.timeout; 0 = none. */
  requestTimeoutMs: number;
}

export interface LoadKubeConfigOptions {
  env?: NodeJS.ProcessEnv;
  httpClient?: HTTPClientConfig;
  /** For tests; default os.homedir(). */
  homeDir?: string;
}

function noProxy(host: string, env: NodeJS.ProcessEnv): boolean {
  const list = (env.NO_PROXY ?? env.no_proxy ?? '').split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return list.some((n) => n === '*' || h === n || (n.startsWith('.') ? h.endsWith(n) : h.endsWith(`.${n}`)));
}

/** The proxy Go's ProxyFromEnvironment would pick for `server`, if any. */
export function proxyFor(server: string, env: NodeJS.ProcessEnv): string | undefined {
  const u = new URL(server);
  if (noProxy(u.hostname, env)) return undefined;
  const p = u.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return p === undefined || p === '' ? undefined : p;
}

export function loadKubeConfig(opts: LoadKubeConfigOptions = {}): LoadedKubeConfig {
  const env = opts.env ?? process.env;
  const source = kubeConfigSource(opts);
  if (source === undefined) throw new KubeConfigError('no Kubernetes configuration: not in a pod (KUBERNETES_SERVICE_HOST unset), KUBECONFIG unset, no ~/.kube/config');
  const kc = new k8s.KubeConfig();
  try {
    if (source === 'in-cluster') {
      const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
      // loadFromCluster reads process.env; use the given env for it.
      process.env.KUBERNETES_SERVICE_HOST = env.KUBERNETES_SERVICE_HOST;
      process.env.KUBERNETES_SERVICE_PORT = env.KUBERNETES_SERVICE_PORT;
      try {
        kc.loadFromCluster();
      } finally {
        if (saved.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST;
        else process.env.KUBERNETES_SERVICE_HOST = saved.host;
        if (saved.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT;
        else process.env.KUBERNETES_SERVICE_PORT = saved.port;
      }
    } else {
      const files = source === 'kubeconfig' ? (env.KUBECONFIG ?? '').split(':').filter((f) => f !== '') : [join(opts.homeDir ?? homedir(), '.kube', 'config')];
      const file = files.find((f) => existsSync(f));
      if (!file) throw new KubeConfigError(`KUBECONFIG names no file that exists: ${env.KUBECONFIG ?? ''}`);
      kc.loadFromFile(file);
    }
  } catch (err) {
    if (err instanceof KubeConfigError) throw err;
    throw new KubeConfigError(`cannot load the Kubernetes configuration (${source}): ${(err as Error).message}`, err);
  }
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeConfigError(`the Kubernetes configuration (${source}) has no current cluster`);
  applyHttpClient(kc, opts.httpClient, env);
  const timeoutMs = opts.httpClient ? tryParseDuration(opts.httpClient.timeout) ?? 0 : 0;
  return { kc, source, server: cluster.server, requestTimeoutMs: timeoutMs > 0 ? timeoutMs : 0 };
}

/** Rewrites the current cluster and user with the http_client settings that client-node can carry. */
export function applyHttpClient(kc: k8s.KubeConfig, http: HTTPClientConfig | undefined, env: NodeJS.ProcessEnv): void {
  if (!http) return;
  const cluster = kc.getCurrentCluster();
  const user = kc.getCurrentUser();
  const ctx = kc.getContextObject(kc.getCurrentContext());
  if (!cluster || !ctx) return;
  const tls = http.tls;
  const newCluster: k8s.Cluster = {
    ...cluster,
    ...(tls.ca_file !== '' ? { caFile: tls.ca_file, caData: undefined } : {}),
    ...(tls.insecure_skip_verify ? { skipTLSVerify: true } : {}),
  };
  if (http.use_proxy) {
    const p = proxyFor(cluster.server, env);
    if (p !== undefined) (newCluster as { proxyUrl?: string }).proxyUrl = p;
  }
  const newUser: k8s.User = {
    ...(user ?? { name: 'user' }),
    ...(tls.cert_file !== '' ? { certFile: tls.cert_file, certData: undefined } : {}),
    ...(tls.key_file !== '' ? { keyFile: tls.key_file, keyData: undefined } : {}),
  };
  kc.loadFromOptions({
    clusters: kc.clusters.map((c) => (c.name === cluster.name ? newCluster : c)),
    users: user ? kc.users.map((u) => (u.name === user.name ? newUser : u)) : [...kc.users, newUser],
    contexts: kc.contexts.map((c) => (c.name === ctx.name && !user ? { ...c, user: newUser.name } : c)),
    currentContext: kc.getCurrentContext(),
  });
}
