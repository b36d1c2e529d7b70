import { readFileSync } from 'node:fs';
import type { TLSSocket, TlsOptions } from 'node:tls';
import { InvalidArgumentError } from '@sluice/errors';
import type { ServerTLSConfig } from './config.js';

/**
 * TLS server options for server.tls: TLS 1.2 minimum, ALPN h2 (gRPC) and http/1.1,
 * and with client_ca_file, client certificates required and verified against that CA.
 */
export function serverTlsOptions(config: ServerTLSConfig): TlsOptions {
  if (config.cert_file === '' || config.key_file === '') {
    throw new InvalidArgumentError('server.tls.enabled requires cert_file and key_file', 'tls');
  }
  const options: TlsOptions = {
    cert: readFile(config.cert_file, 'tls.cert_file'),
    key: readFile(config.key_file, 'tls.key_file'),
    minVersion: 'TLSv1.2',
    ALPNProtocols: ['h2', 'http/1.1'],
  };
  if (config.client_ca_file !== '') {
    options.ca = readFile(config.client_ca_file, 'tls.client_ca_file');
    options.requestCert = true;
    options.rejectUnauthorized = true;
  }
  return options;
}

function readFile(path: string, field: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new InvalidArgumentError(`cannot read ${field} ${path}: ${(err as Error).message}`, field);
  }
}

/**
 * Whether a freshly handshaken connection may proceed: with client_ca_file and allowed_cn set,
 * the verified client leaf's subject CN must equal allowed_cn exactly. The check runs right after
 * the handshake, before a single byte is routed; a refused socket is destroyed.
 */
export function peerAllowed(socket: TLSSocket, config: ServerTLSConfig): boolean {
  if (config.client_ca_file === '' || config.allowed_cn === '') return true;
  if (!socket.authorized) return false;
  const cn = socket.getPeerCertificate().subject?.CN as string | string[] | undefined;
  return typeof cn === 'string' && cn === config.allowed_cn;
}
