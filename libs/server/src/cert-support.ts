import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Test helper: a throwaway CA, a server certificate for 127.0.0.1/localhost, and client certificates by CN, made with openssl. */
export interface TestPki {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  client(cn: string): { cert: string; key: string };
  cleanup(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

export function createTestPki(clientCns: string[]): TestPki {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-pki-'));
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=Sluice Test CA', '-keyout', 'ca.key', '-out', 'ca.crt'], dir);
  const issue = (name: string, cn: string, ext: string): void => {
    writeFileSync(join(dir, `${name}.ext`), ext);
    openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', `/CN=${cn}`,
      '-keyout', `${name}.key`, '-out', `${name}.csr`], dir);
    openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1',
      '-extfile', `${name}.ext`, '-out', `${name}.crt`], dir);
  };
  issue('server', 'localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  clientCns.forEach((cn, i) => issue(`client${i}`, cn, 'extendedKeyUsage=clientAuth\n'));
  return {
    dir,
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    client(cn) {
      const i = clientCns.indexOf(cn);
      if (i < 0) throw new Error(`no client certificate for ${cn}`);
      return { cert: join(dir, `client${i}.crt`), key: join(dir, `client${i}.key`) };
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
