import { isIP, isIPv4, isIPv6 } from 'node:net';
import { tryParseDuration } from '../duration.js';

/**
 * String formats of the configuration. A format name is one base format or
 * several joined by `|` (any may match), as the configuration reference writes them:
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

// Container image references, by the grammar of the distribution project's reference package:
// [domain[:port]/]path[:tag][@digest], the path lower case, the name at most 255 characters.
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:.]+\\])(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[_.]|__|[-]+)[a-z0-9]+)*';
const IMAGE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`);

/** A container image reference such as `sluice/tap:0.1.0` or `registry.example:5000/team/tap@sha256:<hex>`. */
export function isImageReference(value: string): boolean {
  const m = IMAGE.exec(value);
  return m !== null && m[1].length <= 255;
}

/** An RFC 1123 DNS label, lower case (a Kubernetes Service name): at most 63 characters. */
export function isDnsLabel(value: string): boolean {
  return value.length <= 63 && /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/.test(value);
}

/** An RFC 1123 DNS subdomain, lower case (the name of most Kubernetes objects, such as a ConfigMap). */
export function isDnsSubdomain(value: string): boolean {
  return value.length <= 253 && value.split('.').every((label) => /^[a-z0-9](?:[-a-z0-9]*[a-z0-9])?$/.test(label));
}

const BASE: Readonly<Record<string, (value: string) => boolean>> = {
  empty: (value) => value === '',
  hostname_port: isHostnamePort,
  url: isUrl,
  fqdn: isFqdn,
  ip: isIp,
  image: isImageReference,
  dns_label: isDnsLabel,
  dns_subdomain: isDnsSubdomain,
  memory_limit: (value) => /^[1-9][0-9]{0,5}(Mi|Gi)$/.test(value),
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
  image: 'a container image reference such as sluice/tap:0.1.0 or registry.example:5000/sluice/tap@sha256:<hex>',
  dns_label: 'a DNS label such as sluice-agent-peers: lower case letters, digits and -, at most 63 characters',
  dns_subdomain: 'a DNS subdomain such as sluice-agent.sidecar: lower case labels joined by ., at most 253 characters',
  memory_limit: 'a Kubernetes memory quantity in Mi or Gi such as 256Mi or 1Gi',
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
