import os from 'node:os';
import { InvalidArgumentError, ErrorCode } from '@sluice/errors';

/** `host:port`, `[v6]:port` or `:port` (every interface). */
export function splitHostPort(addr: string): { host: string; port: number } {
  const i = addr.lastIndexOf(':');
  if (i < 0) throw new InvalidArgumentError(`address ${JSON.stringify(addr)} has no port`, undefined, ErrorCode.DISTCACHE_ADDRESS);
  let host = addr.slice(0, i);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const port = Number(addr.slice(i + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new InvalidArgumentError(`address ${JSON.stringify(addr)} has a bad port`, undefined, ErrorCode.DISTCACHE_ADDRESS);
  }
  return { host, port };
}

export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The host to bind for `host` ('' means every interface). */
export function bindHost(host: string): string {
  return host === '' ? '0.0.0.0' : host;
}

/**
 * What others dial: the advertised address when set, else the bound one with
 * the host's first non-internal IPv4 address in place of a wildcard host
 * (loopback when the host has none).
 */
export function advertised(advertise: string, boundHost: string, boundPort: number): string {
  if (advertise !== '') {
    const { host, port } = splitHostPort(advertise);
    return joinHostPort(host === '' ? hostAddress() : host, port === 0 ? boundPort : port);
  }
  const wildcard = boundHost === '' || boundHost === '0.0.0.0' || boundHost === '::';
  return joinHostPort(wildcard ? hostAddress() : boundHost, boundPort);
}

export function hostAddress(): string {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
}
