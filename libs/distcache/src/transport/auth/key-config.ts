import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { InvalidArgumentError, ErrorCode } from '@sluice/errors';
import { splitHostPort } from '../../address.js';
import { Keyring, parseKeys } from './keyring.js';

/** `dist_cache.auth` and the addresses it guards. */
export interface KeySettings {
  /** `dist_cache.auth.key_file` ('' = none). */
  keyFile: string;
  /** `dist_cache.auth.keys` (comma-separated, '' = none). */
  keys: string;
  /** `dist_cache.auth.insecure`. */
  insecure: boolean;
  /** The bound addresses, by the key that sets each (`dist_cache.bind_addr`: `:3320`). */
  bound: Readonly<Record<string, string>>;
  /** How a configuration key is spelt in messages (e.g. with its env variable). */
  name?: (path: string) => string;
}

/** Whether `addr` binds loopback only (127.0.0.0/8, ::1, localhost); '' and wildcards bind every interface. */
export function isLoopbackBind(addr: string): boolean {
  const { host } = splitHostPort(addr);
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

/**
 * The group's keyring from `dist_cache.auth`: the file's keys, then those of
 * `keys`. Without any, undefined when every port binds loopback or
 * `insecure` is set, else a InvalidArgumentError naming the port and the
 * keys to set. An unreadable file or a short key is an error naming the key
 * (never the secret).
 */
export function keyringFrom(s: KeySettings): Keyring | undefined {
  const name = s.name ?? ((p: string) => p);
  const keys: Buffer[] = [];
  if (s.keyFile !== '') {
    let text: string;
    try {
      text = readFileSync(s.keyFile, 'utf8');
    } catch (e) {
      throw new InvalidArgumentError(`${name('dist_cache.auth.key_file')} ${s.keyFile}: cannot read: ${(e as Error).message}`, 'dist_cache.auth.key_file', ErrorCode.DISTCACHE_AUTH);
    }
    keys.push(...parsed(text, `${name('dist_cache.auth.key_file')} ${s.keyFile}`));
    if (keys.length === 0) throw new InvalidArgumentError(`${name('dist_cache.auth.key_file')} ${s.keyFile} holds no key`, 'dist_cache.auth.key_file', ErrorCode.DISTCACHE_AUTH);
  }
  if (s.keys !== '') keys.push(...parsed(s.keys, name('dist_cache.auth.keys')));
  if (keys.length > 0) return new Keyring(keys);
  const exposed = Object.entries(s.bound).filter(([, addr]) => !isLoopbackBind(addr));
  if (exposed.length === 0 || s.insecure) return undefined;
  const ports = exposed.map(([k, addr]) => `${name(k)} ${addr}`).join(' and ');
  throw new InvalidArgumentError(
    `${ports} not on loopback and no key: set ${name('dist_cache.auth.key_file')} or ${name('dist_cache.auth.keys')} (the group's shared keys), ` +
    `bind loopback, or set ${name('dist_cache.auth.insecure')} to let anyone who reaches the ports join and set limits`,
    'dist_cache.auth.keys', ErrorCode.DISTCACHE_AUTH,
  );
}

function parsed(text: string, where: string): Buffer[] {
  try {
    return parseKeys(text);
  } catch (e) {
    throw new InvalidArgumentError(`${where}: ${(e as Error).message}`, 'dist_cache.auth', ErrorCode.DISTCACHE_AUTH);
  }
}
