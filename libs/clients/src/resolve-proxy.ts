import { BlockList, isIP } from 'node:net';
import { InvalidArgumentError } from '@sluice/errors';
import type { ProxyConfig } from './config.js';

type Env = Readonly<Record<string, string | undefined>>;

function envValue(env: Env, name: string): string {
  return env[name.toUpperCase()] || env[name.toLowerCase()] || '';
}

/** The proxy settings in force: each ProxyConfig field when set, else its environment variable. */
export function effectiveProxy(proxy: ProxyConfig, env: Env = process.env): { http: string; https: string; noProxy: string[] } {
  const noProxy = proxy.no_proxy.length > 0 ? proxy.no_proxy : envValue(env, 'no_proxy').split(',');
  return {
    http: proxy.http || envValue(env, 'http_proxy'),
    https: proxy.https || envValue(env, 'https_proxy'),
    noProxy: noProxy.map((s) => s.trim()).filter((s) => s.length > 0),
  };
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' || protocol === 'wss:' ? '443' : '80';
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * NO_PROXY matching, following Go's httpproxy: `*` matches everything; an IP
 * or CIDR (`10.0.0.0/8`, `::1`) matches IP hosts in it; `host` matches that
 * host and its subdomains; `.host` matches subdomains only; an entry with
 * `:port` also requires that port. Case-insensitive. Loopback is not exempt
 * by itself: list it when it must bypass the proxy.
 */
export function matchesNoProxy(target: URL, entries: readonly string[]): boolean {
  const host = stripBrackets(target.hostname.toLowerCase()).replace(/\.$/, '');
  const port = target.port || defaultPort(target.protocol);
  const ipVersion = isIP(host);
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    if (entry.includes('/')) {
      const [net, bits] = entry.split('/');
      const family = isIP(net);
      if (family === 0 || ipVersion !== family || !/^\d+$/.test(bits)) continue;
      const list = new BlockList();
      list.addSubnet(net, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
      if (list.check(host, family === 4 ? 'ipv4' : 'ipv6')) return true;
      continue;
    }
    let entryHost = entry;
    let entryPort = '';
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed !== null) {
      entryHost = bracketed[1];
      entryPort = bracketed[2] ?? '';
    } else if (isIP(entry) === 0) {
      const colon = entry.lastIndexOf(':');
      if (colon > 0 && /^\d+$/.test(entry.slice(colon + 1))) {
        entryHost = entry.slice(0, colon);
        entryPort = entry.slice(colon + 1);
      }
    }
    if (entryPort !== '' && entryPort !== port) continue;
    if (isIP(entryHost) !== 0) {
      if (entryHost === host) return true;
      continue;
    }
    if (entryHost.startsWith('*.')) entryHost = entryHost.slice(1);
    if (entryHost.startsWith('.')) {
      if (host.endsWith(entryHost)) return true;
      continue;
    }
    if (host === entryHost || host.endsWith(`.${entryHost}`)) return true;
  }
  return false;
}

/** Normalizes a proxy address: `host:port` becomes `http://host:port`. */
export function proxyUrl(address: string, field = 'proxy'): URL {
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `http://${address}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError(`invalid proxy address ${JSON.stringify(address)}`, field);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError(`proxy scheme ${url.protocol} is not supported; use http or https`, field);
  return url;
}

/**
 * The proxy to use for `target`, or undefined to connect directly: https
 * targets use the https proxy, http targets the http proxy, after NO_PROXY.
 * `proxy` fields win over HTTP_PROXY / HTTPS_PROXY / NO_PROXY (either case) in `env`.
 */
export function resolveProxy(target: string | URL, proxy: ProxyConfig, env: Env = process.env): URL | undefined {
  const url = typeof target === 'string' ? new URL(target) : target;
  const settings = effectiveProxy(proxy, env);
  const address = url.protocol === 'https:' || url.protocol === 'wss:' ? settings.https : url.protocol === 'http:' || url.protocol === 'ws:' ? settings.http : '';
  if (address === '') return undefined;
  if (matchesNoProxy(url, settings.noProxy)) return undefined;
  return proxyUrl(address, url.protocol === 'https:' ? 'client.proxy.https' : 'client.proxy.http');
}
