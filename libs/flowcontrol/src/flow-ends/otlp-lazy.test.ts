// The OTLP trace service loads the OpenTelemetry protos at its first
// export, not when it is registered at start-up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type * as grpc from '@grpc/grpc-js';
import { otlpMessagesLoaded } from '@sluice/proto';
import { registerOtlpTraceService } from './otlp-trace-service.js';

test('registering the OTLP trace service does not load its protos; the first export does', async () => {
  let def: grpc.ServiceDefinition | undefined;
  let impl: grpc.UntypedServiceImplementation | undefined;
  registerOtlpTraceService({ addService: (d, i) => { def = d; impl = i; } }, { consume: () => true });
  assert.ok(def !== undefined && impl !== undefined);
  assert.equal(otlpMessagesLoaded(), false, 'not loaded at registration');
  const handler = impl.Export as grpc.handleUnaryCall<Buffer, unknown>;
  const answer = await new Promise<{ err: unknown; value: unknown }>((resolve) => {
    handler({ request: Buffer.alloc(0) } as unknown as grpc.ServerUnaryCall<Buffer, unknown>, (err, value) => resolve({ err, value }));
  });
  assert.equal(answer.err, null, 'an empty export is a valid one');
  assert.equal(otlpMessagesLoaded(), true, 'loaded by the first export');
  const bytes = def.Export.responseSerialize({ partialSuccess: { rejectedSpans: 2, errorMessage: 'x' } });
  const back = def.Export.responseDeserialize(bytes) as { partialSuccess?: { rejectedSpans?: unknown; errorMessage?: unknown } };
  assert.equal(Number(back.partialSuccess?.rejectedSpans), 2);
  assert.equal(back.partialSuccess?.errorMessage, 'x');
});
