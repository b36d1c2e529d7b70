// A kubeconfig for the test API server: one cluster (plain HTTP on loopback), one user with a
// placeholder token (the server does not authenticate), one context with namespace `default`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function kubeconfigYaml(server: string, namespace = 'default'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: sluice-test',
    '  cluster:',
    `    server: ${server}`,
    '    insecure-skip-tls-verify: true',
    'users:',
    '- name: sluice-test',
    '  user:',
    '    token: sluice-test',
    'contexts:',
    '- name: sluice-test',
    '  context:',
    '    cluster: sluice-test',
    '    user: sluice-test',
    `    namespace: ${namespace}`,
    'current-context: sluice-test',
    'preferences: {}',
    '',
  ].join('\n');
}

export function writeKubeconfig(path: string, server: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, kubeconfigYaml(server), { mode: 0o600 });
  return path;
}
