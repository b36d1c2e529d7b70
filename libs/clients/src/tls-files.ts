import { readFileSync } from 'node:fs';
import { InvalidArgumentError } from '@sluice/errors';
import type { ClientTLSConfig } from './config.js';

/** TLS material read from a ClientTLSConfig, in node:tls option names. */
export interface ClientTlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** False with insecure_skip_verify: neither the chain nor the host name is checked. */
  rejectUnauthorized: boolean;
  checkServerIdentity?: () => undefined;
}

function read(path: string, field: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new InvalidArgumentError(`cannot read ${field} ${JSON.stringify(path)}: ${(err as Error).message}`, field);
  }
}

/**
 * Reads ca_file, cert_file and key_file. A client certificate needs both
 * cert_file and key_file. insecure_skip_verify turns off chain and host-name checks.
 */
export function loadClientTls(tls: ClientTLSConfig | undefined, prefix = 'tls'): ClientTlsMaterial {
  const material: ClientTlsMaterial = { rejectUnauthorized: !(tls?.insecure_skip_verify ?? false) };
  if (tls === undefined) return material;
  if (tls.ca_file) material.ca = read(tls.ca_file, `${prefix}.ca_file`);
  if (Boolean(tls.cert_file) !== Boolean(tls.key_file)) {
    throw new InvalidArgumentError('cert_file and key_file must be set together', tls.cert_file ? `${prefix}.key_file` : `${prefix}.cert_file`);
  }
  if (tls.cert_file) material.cert = read(tls.cert_file, `${prefix}.cert_file`);
  if (tls.key_file) material.key = read(tls.key_file, `${prefix}.key_file`);
  if (tls.insecure_skip_verify) material.checkServerIdentity = () => undefined;
  return material;
}
