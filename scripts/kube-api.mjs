#!/usr/bin/env node
// `make kube-api`: the test Kubernetes API server (e2e/dist/kube-api) in the foreground, on
// loopback port SLUICE_KUBE_API_PORT (default 6443), with a kubeconfig written to
// SLUICE_KUBE_API_KUBECONFIG (default .kube-api/kubeconfig). SIGINT/SIGTERM stop it.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const portText = process.env.SLUICE_KUBE_API_PORT ?? '6443';
const port = Number(portText);
if (!/^\d+$/.test(portText) || port < 1 || port > 65535) {
  console.error(`SLUICE_KUBE_API_PORT: "${portText}" is not a port number (1..65535)`);
  process.exit(2);
}
const kubeconfig = resolve(root, process.env.SLUICE_KUBE_API_KUBECONFIG ?? '.kube-api/kubeconfig');

let mod;
try {
  mod = await import(new URL('../e2e/dist/kube-api/index.js', import.meta.url).href);
} catch (err) {
  console.error(`cannot load the built test API server (run \`make build\` first): ${err.message}`);
  process.exit(1);
}
const server = new mod.KubeApiServer({ port, bookmarkIntervalMs: 10_000 });
try {
  await server.start();
} catch (err) {
  console.error(`cannot listen on 127.0.0.1:${port}: ${err.message}`);
  process.exit(1);
}
mod.writeKubeconfig(kubeconfig, server.url);
console.log(`test Kubernetes API server on ${server.url}`);
console.log(`kubeconfig: ${kubeconfig}`);
console.log(`  export KUBECONFIG=${kubeconfig}`);
console.log('stop with Ctrl-C');

let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: stopping`);
  await server.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
