// The OTLP span intake of a real agent is served on its server port and inherits server.tls: with a
// client CA and allowed_cn, an exporter without a certificate, or with another common name, is refused;
// the right one is served, and a forged span (a flow of 1e15 ms) is answered as rejected, with why.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { startAgent, tempDir } from './support/processes.js';
import { otlpMessages } from '@sluice/proto';

const GOOD_CN = 'sdk.sluice.test';
const BAD_CN = 'intruder.sluice.test';

interface Msg { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): unknown }
const otlp = (otlpMessages() as unknown as { ExportTraceServiceRequest: Msg; ExportTraceServiceResponse: Msg });

/** A throwaway CA, a server certificate for 127.0.0.1, and client certificates for `cns`, made with openssl. */
function pki(t: TestContext, cns: string[]): { dir: string; file: (name: string) => string } {
  const dir = tempDir(t, 'sluice-otlp-pki-');
  const run = (args: string[]): void => { execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' }); };
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run(['req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=otlp-test-ca']);
  const issue = (name: string, cn: string, ext: string): void => {
    writeFileSync(join(dir, `${name}.ext`), ext);
    run(['req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cn}`]);
    run(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`]);
  };
  issue('server', 'localhost', 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
  for (const cn of cns) issue(cn, cn, 'extendedKeyUsage=clientAuth\n');
  return { dir, file: (name) => join(dir, name) };
}

type Exporter = grpc.Client & { Export: (b: Buffer, o: grpc.CallOptions, cb: (e: grpc.ServiceError | null, r: unknown) => void) => void };
const Ctor = grpc.makeGenericClientConstructor({
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export', requestStream: false, responseStream: false, originalName: 'export',
    requestSerialize: (b: Buffer) => b, requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b, responseDeserialize: (b: Buffer) => otlp.ExportTraceServiceResponse.decode(b),
  },
}, 'TraceService');

const attr = (key: string, value: Record<string, unknown>) => ({ key, value });
const FORGED = Buffer.from(otlp.ExportTraceServiceRequest.encode(otlp.ExportTraceServiceRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [{
  traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 1), name: 'forged', startTimeUnixNano: 1, endTimeUnixNano: 2,
  attributes: [attr('aperture.source', { stringValue: 'sdk' }),
    attr('aperture.check_response', { stringValue: JSON.stringify({ controlPoint: 'ingress', fluxMeterInfos: [{ fluxMeterName: 'latency' }] }) }),
    attr('aperture.workload_start_timestamp_ms', { intValue: 1 }), attr('aperture.flow_end_timestamp_ms', { intValue: 1e15 })],
}] }] }] })).finish());

function exportSpans(c: Exporter): Promise<{ partialSuccess?: { rejectedSpans: unknown; errorMessage: string } }> {
  return new Promise((resolve, reject) => {
    c.Export(FORGED, { deadline: Date.now() + 5000 }, (e, r) => (e ? reject(e) : resolve(r as never)));
  });
}

test('agent OTLP intake: inherits server.tls client certificates and allowed_cn; a forged 1e15 ms span is rejected', { timeout: 90_000 }, async (t) => {
  const p = pki(t, [GOOD_CN, BAD_CN]);
  const agent = await startAgent(t, {
    ready: false,
    env: {
      SLUICE_AGENT_SERVER_TLS_ENABLED: 'true', SLUICE_AGENT_SERVER_TLS_CERT_FILE: p.file('server.crt'), SLUICE_AGENT_SERVER_TLS_KEY_FILE: p.file('server.key'),
      SLUICE_AGENT_SERVER_TLS_CLIENT_CA_FILE: p.file('ca.crt'), SLUICE_AGENT_SERVER_TLS_ALLOWED_CN: GOOD_CN,
    },
  });
  const ca = readFileSync(p.file('ca.crt'));
  const clients: grpc.Client[] = [];
  t.after(() => { for (const c of clients) c.close(); });
  const exporter = (creds: grpc.ChannelCredentials): Exporter => {
    const c = new Ctor(agent.address, creds) as unknown as Exporter;
    clients.push(c);
    return c;
  };
  const withCert = (cn: string) => grpc.credentials.createSsl(ca, readFileSync(p.file(`${cn}.key`)), readFileSync(p.file(`${cn}.crt`)));

  await assert.rejects(exportSpans(exporter(grpc.credentials.createInsecure())), { code: grpc.status.UNAVAILABLE }, 'plaintext');
  await assert.rejects(exportSpans(exporter(grpc.credentials.createSsl(ca))), { code: grpc.status.UNAVAILABLE }, 'no client certificate');
  await assert.rejects(exportSpans(exporter(withCert(BAD_CN))), { code: grpc.status.UNAVAILABLE }, 'another common name');
  const answer = await exportSpans(exporter(withCert(GOOD_CN)));
  assert.equal(Number(answer.partialSuccess?.rejectedSpans), 1, 'served, and the forged span rejected');
  assert.match(answer.partialSuccess?.errorMessage ?? '', /longer than 3600000 ms/);
});
