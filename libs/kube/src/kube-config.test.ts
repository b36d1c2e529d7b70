import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultsOf, HTTPClientConfigSchema, type HTTPClientConfig } from '@sluice/config';
import { KubeConfigError, kubeConfigSource, loadKubeConfig, proxyFor } from './kube-config.js';

const KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: 'https://api.example:6443'}
users:
- name: u
  user: {token: t}
contexts:
- name: ctx
  context: {cluster: c, user: u}
current-context: ctx
`;

function tmp(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-kube-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const http = (over: Omit<Partial<HTTPClientConfig>, 'tls'> & { tls?: Partial<HTTPClientConfig['tls']> } = {}): HTTPClientConfig => {
  const d = defaultsOf(HTTPClientConfigSchema) as HTTPClientConfig;
  return { ...d, ...over, tls: { ...d.tls, ...(over.tls ?? {}) } };
};

test('the source: a pod (KUBERNETES_SERVICE_HOST) first, then KUBECONFIG, then ~/.kube/config, else none', (t) => {
  const home = tmp(t);
  assert.equal(kubeConfigSource({ env: { KUBERNETES_SERVICE_HOST: '10.0.0.1', KUBECONFIG: '/x' }, homeDir: home }), 'in-cluster');
  assert.equal(kubeConfigSource({ env: { KUBECONFIG: '/x' }, homeDir: home }), 'kubeconfig');
  assert.equal(kubeConfigSource({ env: {}, homeDir: home }), undefined);
  mkdirSync(join(home, '.kube'));
  writeFileSync(join(home, '.kube', 'config'), KUBECONFIG);
  assert.equal(kubeConfigSource({ env: {}, homeDir: home }), 'default-file');
  assert.equal(loadKubeConfig({ env: {}, homeDir: home }).server, 'https://api.example:6443');
});

test('KUBECONFIG is loaded; http_client.timeout bounds requests; TLS files and skip-verify override the kubeconfig', (t) => {
  const dir = tmp(t);
  const file = join(dir, 'config');
  writeFileSync(file, KUBECONFIG);
  const plain = loadKubeConfig({ env: { KUBECONFIG: file } });
  assert.equal(plain.source, 'kubeconfig');
  assert.equal(plain.requestTimeoutMs, 0);
  const tuned = loadKubeConfig({ env: { KUBECONFIG: `/nope:${file}` }, httpClient: http({ timeout: '5s', tls: { ca_file: '/ca.pem', cert_file: '/c.pem', key_file: '/k.pem', insecure_skip_verify: true } }) });
  assert.equal(tuned.requestTimeoutMs, 5000);
  const c = tuned.kc.getCurrentCluster();
  assert.equal(c?.caFile, '/ca.pem');
  assert.equal(c?.skipTLSVerify, true);
  assert.equal(tuned.kc.getCurrentUser()?.certFile, '/c.pem');
  assert.equal(tuned.kc.getCurrentUser()?.keyFile, '/k.pem');
  assert.equal(tuned.kc.getCurrentUser()?.token, 't');
});

test('use_proxy takes HTTPS_PROXY for an https server unless NO_PROXY matches; off, no proxy', (t) => {
  const dir = tmp(t);
  const file = join(dir, 'config');
  writeFileSync(file, KUBECONFIG);
  const env = { KUBECONFIG: file, HTTPS_PROXY: 'http://proxy:3128' };
  assert.equal(loadKubeConfig({ env, httpClient: http({ use_proxy: true }) }).kc.getCurrentCluster()?.proxyUrl, 'http://proxy:3128');
  assert.equal(loadKubeConfig({ env, httpClient: http({ use_proxy: false }) }).kc.getCurrentCluster()?.proxyUrl, undefined);
  assert.equal(proxyFor('https://api.example:6443', { HTTPS_PROXY: 'http://p', NO_PROXY: '.example' }), undefined);
  assert.equal(proxyFor('https://api.example:6443', { HTTPS_PROXY: 'http://p', NO_PROXY: 'other,example' }), undefined);
  assert.equal(proxyFor('https://api.example:6443', { HTTPS_PROXY: 'http://p', NO_PROXY: 'xample' }), 'http://p');
  assert.equal(proxyFor('http://api.example:80', { HTTPS_PROXY: 'http://p' }), undefined);
  assert.equal(proxyFor('http://api.example:80', { http_proxy: 'http://q' }), 'http://q');
});

test('bad configurations are KubeConfigErrors naming the cause', (t) => {
  const dir = tmp(t);
  assert.throws(() => loadKubeConfig({ env: {}, homeDir: dir }), (e: unknown) => e instanceof KubeConfigError && /not in a pod/.test(e.message));
  assert.throws(() => loadKubeConfig({ env: { KUBECONFIG: join(dir, 'missing') } }), (e: unknown) => e instanceof KubeConfigError && /names no file that exists/.test(e.message));
  const bad = join(dir, 'bad');
  writeFileSync(bad, ':\n  - [');
  assert.throws(() => loadKubeConfig({ env: { KUBECONFIG: bad } }), (e: unknown) => e instanceof KubeConfigError && e.code === 'SLUICE_ERR_KUBE_CONFIG');
  const empty = join(dir, 'empty');
  writeFileSync(empty, 'apiVersion: v1\nkind: Config\nclusters: []\ncontexts: []\nusers: []\n');
  assert.throws(() => loadKubeConfig({ env: { KUBECONFIG: empty } }), (e: unknown) => e instanceof KubeConfigError && /no current cluster/.test(e.message));
});

test('in a pod, the service account is used (its files are read when a request is made)', () => {
  const loaded = loadKubeConfig({ env: { KUBERNETES_SERVICE_HOST: 'fd00::1', KUBERNETES_SERVICE_PORT: '443' } });
  assert.equal(loaded.source, 'in-cluster');
  assert.equal(loaded.server, 'https://[fd00::1]:443');
});
