import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { InvalidArgumentError } from '@sluice/errors';

/** Where and how to bind: the arguments of net.Server.listen. */
export interface ListenTarget {
  host: string;
  port: number;
  ipv6Only: boolean;
}

/** Split `host:port`, `:port`, `[v6%zone]:port` into host ('' = all interfaces) and port. */
export function splitHostPort(addr: string): { host: string; port: number } {
  let host: string;
  let portText: string;
  if (addr.startsWith('[')) {
    const close = addr.indexOf(']');
    if (close < 0 || addr[close + 1] !== ':') throw new InvalidArgumentError(`listener address ${JSON.stringify(addr)} is not [host]:port`, 'addr');
    host = addr.slice(1, close);
    portText = addr.slice(close + 2);
  } else {
    const colon = addr.lastIndexOf(':');
    if (colon < 0) throw new InvalidArgumentError(`listener address ${JSON.stringify(addr)} has no port`, 'addr');
    host = addr.slice(0, colon);
    portText = addr.slice(colon + 1);
    if (host.includes(':')) throw new InvalidArgumentError(`listener address ${JSON.stringify(addr)}: IPv6 hosts must be in brackets`, 'addr');
  }
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new InvalidArgumentError(`listener address ${JSON.stringify(addr)} has an invalid port`, 'addr');
  }
  return { host, port: Number(portText) };
}

/**
 * Resolve the listener address for a network: `tcp` (dual stack when the host is empty),
 * `tcp4` (IPv4 only) or `tcp6` (IPv6 only).
 */
export async function resolveListenTarget(addr: string, network: string): Promise<ListenTarget> {
  const { host, port } = splitHostPort(addr);
  if (network !== 'tcp' && network !== 'tcp4' && network !== 'tcp6') {
    throw new InvalidArgumentError(`listener network ${JSON.stringify(network)} is not one of tcp, tcp4, tcp6`, 'network');
  }
  if (host === '') {
    if (network === 'tcp4') return { host: '0.0.0.0', port, ipv6Only: false };
    return { host: '::', port, ipv6Only: network === 'tcp6' };
  }
  const family = network === 'tcp4' ? 4 : network === 'tcp6' ? 6 : 0;
  const literal = isIP(host.split('%')[0] ?? host);
  if (literal !== 0) {
    if (family !== 0 && literal !== family) {
      throw new InvalidArgumentError(`listener host ${host} is not an IPv${family} address (network ${network})`, 'addr');
    }
    return { host, port, ipv6Only: literal === 6 && family === 6 };
  }
  const found = await lookup(host, { family });
  return { host: found.address, port, ipv6Only: family === 6 };
}
