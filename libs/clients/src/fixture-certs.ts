import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCerts {
  dir: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  cleanup(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** A throw-away CA with a server certificate for 127.0.0.1/localhost and a client certificate, made with openssl. */
export function makeTestCerts(): TestCerts {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-certs-'));
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, ['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=sluice-test-ca']);
  writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  writeFileSync(path.join(dir, 'client.ext'), 'extendedKeyUsage=clientAuth\n');
  for (const [name, cn] of [['server', 'localhost'], ['client', 'sluice-client']]) {
    openssl(dir, ['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
    openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`]);
  }
  return {
    dir,
    ca: path.join(dir, 'ca.crt'),
    serverCert: path.join(dir, 'server.crt'),
    serverKey: path.join(dir, 'server.key'),
    clientCert: path.join(dir, 'client.crt'),
    clientKey: path.join(dir, 'client.key'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
