import { isIP } from 'node:net';
import type { HostPort } from '../options.js';

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** Whether `host` is an IP address or a DNS name. */
export function isHost(host: string): boolean {
  return isIP(host) !== 0 || HOSTNAME.test(host);
}

function parsePort(text: string, min: number): number | string {
  if (!/^\d{1,5}$/.test(text)) return `port "${text}" is not a number`;
  const port = Number(text);
  if (port < min || port > 65535) return `port ${port} is out of range ${min}..65535`;
  return port;
}

/**
 * `host:port`, `[ipv6]:port`, or (when `anyHost`) `:port` for every interface.
 * Returns the address or a description of what is wrong.
 */
export function parseHostPort(text: string, opts: { anyHost: boolean; minPort: number }): HostPort | string {
  const m = /^(?:\[([^\]]*)\]|([^:[\]]*)):([^:]*)$/.exec(text);
  if (m === null) return `"${text}" is not a host:port address`;
  const host = m[1] ?? m[2] ?? '';
  if (m[1] !== undefined && isIP(host) !== 6) return `"${host}" in brackets is not an IPv6 address`;
  if (host === '' && !opts.anyHost) return `"${text}" has no host`;
  if (host !== '' && !isHost(host)) return `"${host}" is not an IP address or host name`;
  const port = parsePort(m[3] ?? '', opts.minPort);
  if (typeof port === 'string') return port;
  return { host, port };
}

/** The workload's address from an `http://host:port` URL (no path, query or credentials). */
export function parseUpstreamUrl(text: string): HostPort | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text}" is not a URL like http://127.0.0.1:3000`;
  }
  if (url.protocol !== 'http:') return `scheme "${url.protocol.replace(/:$/, '')}" is not supported: the tap speaks plain http to the workload`;
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not supported';
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return `"${text}" has a path, query or fragment: give only http://host:port`;
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { host, port: url.port === '' ? 80 : Number(url.port) };
}

/** `host:port` for display and for dialing ('' host shown as all interfaces). */
export function formatHostPort(a: HostPort): string {
  return `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
