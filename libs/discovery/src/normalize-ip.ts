import { isIP } from 'node:net';

const MAPPED_PREFIX = '::ffff:';

/**
 * The canonical spelling of an IP address used as a lookup key: brackets
 * (`[::1]`) and an IPv6 zone (`fe80::1%eth0`) removed, IPv4-mapped IPv6
 * (`::ffff:1.2.3.4`) turned into plain IPv4, IPv6 lower-cased. A value that
 * is not an IP address comes back trimmed and otherwise unchanged.
 */
export function normalizeIp(raw: string): string {
  let ip = raw.trim();
  if (ip.length > 1 && ip.charCodeAt(0) === 0x5b /* [ */ && ip.charCodeAt(ip.length - 1) === 0x5d /* ] */) {
    ip = ip.slice(1, -1);
  }
  const zone = ip.indexOf('%');
  if (zone > 0) ip = ip.slice(0, zone);
  if (ip.length > MAPPED_PREFIX.length && ip.slice(0, MAPPED_PREFIX.length).toLowerCase() === MAPPED_PREFIX) {
    const v4 = ip.slice(MAPPED_PREFIX.length);
    if (isIP(v4) === 4) return v4;
  }
  if (isIP(ip) === 6) return ip.toLowerCase();
  return ip;
}
