import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { otlpMessages } from '@sluice/proto';
import { OTLP_LOGS_SERVICE, registerOtlpLogsService } from './otlp-logs-service.js';
import type { LogAttributes } from './envoy-access-log.js';
import { otlpExportClient, startTestServer } from '../testing/test-support.js';

interface Msg { fromObject(o: unknown): unknown; encode(m: unknown): { finish(): Uint8Array }; decode(b: Uint8Array): unknown }
const otlp = otlpMessages() as unknown as { ExportLogsServiceRequest: Msg; ExportLogsServiceResponse: Msg };
type Answer = { partialSuccess?: { rejectedLogRecords: number | { toNumber(): number }; errorMessage: string } | null };

test('OTLP logs Export: each record reaches the consumer; refused ones are counted in partial_success; garbage is INVALID_ARGUMENT naming the message', async (t) => {
  const seen: LogAttributes[] = [];
  const s = await startTestServer((server) => registerOtlpLogsService(server, {
    consumeAccessLog: (attributes) => {
      seen.push(attributes);
      return attributes.get('aperture.flow_id') === 'bad' ? 'flow bad is unknown' : true;
    },
  }));
  t.after(() => s.server.shutdown({ deadlineMs: 2000 }));
  const client = otlpExportClient<Answer>(s.grpcAddress, OTLP_LOGS_SERVICE, (b) => otlp.ExportLogsServiceResponse.decode(b));
  t.after(() => client.close());
  const call = (body: Buffer): Promise<Answer> => client.export(body);
  const record = (flow: string) => ({ attributes: [{ key: 'aperture.flow_id', value: { stringValue: flow } }, { key: 'response_code', value: { intValue: 200 } }] });
  const body = (records: unknown[]) => Buffer.from(otlp.ExportLogsServiceRequest.encode(otlp.ExportLogsServiceRequest.fromObject({ resourceLogs: [{ scopeLogs: [{ logRecords: records }] }] })).finish());

  const all = await call(body([record('a'), record('b')]));
  assert.equal(all.partialSuccess ?? null, null, 'every record taken: no partial_success');
  assert.deepEqual(seen.map((a) => a.get('aperture.flow_id')), ['a', 'b']);
  assert.equal(seen[0].get('response_code'), 200);

  const some = await call(body([record('c'), record('bad'), record('bad')]));
  assert.equal(Number(some.partialSuccess?.rejectedLogRecords), 2);
  assert.equal(some.partialSuccess?.errorMessage, 'flow bad is unknown');

  await assert.rejects(call(Buffer.from([0x0a, 0xff, 0xff, 0xff])), (e: grpc.ServiceError) =>
    e.code === grpc.status.INVALID_ARGUMENT && e.details.includes('not an OTLP ExportLogsServiceRequest'));
});
