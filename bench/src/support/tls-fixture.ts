/**
 * A throwaway self-signed certificate for 127.0.0.1 (openssl), for the TLS cases of the benches.
 * The directory is removed by `cleanup`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFixture { cert: string; key: string; ca: Buffer; cleanup(): void }

export function selfSignedCert(): TlsFixture {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-tls-'));
  writeFileSync(join(dir, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', 'key.pem', '-out', 'cert.pem'], { cwd: dir, stdio: 'pipe' });
  const cert = join(dir, 'cert.pem');
  return { cert, key: join(dir, 'key.pem'), ca: readFileSync(cert), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
