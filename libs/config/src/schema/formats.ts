import { isIP, isIPv4, isIPv6 } from 'node:net';
import { tryParseDuration } from '../duration.js';

/**
 * String formats of the configuration. A format name is one base format or
 * several joined by `|` (any may match), as the SPEC writes them:
 * `empty | hostname_port | url | fqdn`, without the spaces.
 */

const LABEL = '[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`);
const FQDN = new RegExp(`^(?:${LABEL}\\.)+[a-zA-Z](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\\.?$`);
const PORT = /^\d{1,5}$/;
const ZONE = /^[^\s\]%]+$/;

function isHostname(host: string): boolean {
  return host.length <= 253 && HOSTNAME.test(host);
}

/** `[host]:port`: empty host, hostname, IPv4, or bracketed IPv6 with optional `%zone`; port 0..65535. */
export function isHostnamePort(value: string): boolean {
  const colon = value.lastIndexOf(':');
  if (colon < 0) return false;
  const host = value.slice(0, colon);
  const port = value.slice(colon + 1);
  if (!PORT.test(port) || Number(port) > 65_535) return false;
  if (host === '') return true;
  if (host.startsWith('[')) {
    if (!host.endsWith(']')) return false;
    const inner = host.slice(1, -1);
    const pct = inner.indexOf('%');
    const ip = pct < 0 ? inner : inner.slice(0, pct);
    if (pct >= 0 && !ZONE.test(inner.slice(pct + 1))) return false;
    return isIPv6(ip);
  }
  if (host.includes(':') || host.includes('[') || host.includes(']')) return false;
  return isIPv4(host) || isHostname(host);
}

/** An absolute URL with a scheme and a host, such as `http://proxy:3128` or `https://api.example.com/v1`. */
export function isUrl(value: string): boolean {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#\s]/.test(value) || /\s/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.host !== '';
  } catch {
    return false;
  }
}

/** A fully qualified domain name: at least two labels, the last one starting with a letter. */
export function isFqdn(value: string): boolean {
  return value.length <= 253 && FQDN.test(value);
}

export function isIp(value: string): boolean {
  return isIP(value) !== 0;
}

const BASE: Readonly<Record<string, (value: string) => boolean>> = {
  empty: (value) => value === '',
  hostname_port: isHostnamePort,
  url: isUrl,
  fqdn: isFqdn,
  ip: isIp,
  duration: (value) => {
    const ms = tryParseDuration(value);
    return ms !== undefined && ms >= 0;
  },
  signed_duration: (value) => tryParseDuration(value) !== undefined,
};

/** What each base format looks like, for messages and the documentation. */
export const FORMAT_HINTS: Readonly<Record<string, string>> = {
  empty: 'the empty string',
  hostname_port: '[host]:port, such as :8080, host:8080, [::1]:8080; port 0..65535',
  url: 'an absolute URL such as http://host:port',
  fqdn: 'a fully qualified domain name such as api.example.com',
  ip: 'an IPv4 or IPv6 address',
  duration: 'a non-negative Go duration such as 10s, 1m30s, 250ms',
  signed_duration: 'a Go duration such as 10s, 1m30s, -1s',
};

export function baseFormats(format: string): string[] {
  return format.split('|');
}

export function isKnownFormat(format: string): boolean {
  return baseFormats(format).every((name) => name in BASE);
}

export function checkFormat(format: string, value: string): boolean {
  return baseFormats(format).some((name) => {
    const check = BASE[name];
    return check !== undefined && check(value);
  });
}

/** `hostname_port ([host]:port, ...)` or `empty | url | hostname_port (...; ...)`. */
export function describeFormat(format: string): string {
  const names = baseFormats(format);
  const shown = names.map((n) => (n === 'signed_duration' ? 'duration' : n)).join(' | ');
  const hints = names.filter((n) => n !== 'empty').map((n) => FORMAT_HINTS[n] ?? n);
  return `${shown} (${hints.join('; ')})`;
}
