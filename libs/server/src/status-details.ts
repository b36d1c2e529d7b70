import protobuf from 'protobufjs';

/**
 * Rich error details over gRPC, as gRPC defines them: a `google.rpc.Status`
 * in the `grpc-status-details-bin` trailer, its details `Any`-packed. Sluice
 * sends `google.rpc.BadRequest` (the fields at fault); the gateway turns them
 * back into the `details` of its JSON error body.
 */
export const STATUS_DETAILS_KEY = 'grpc-status-details-bin';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

const root = protobuf.Root.fromJSON({
  nested: {
    google: {
      nested: {
        protobuf: { nested: { Any: { fields: { type_url: { type: 'string', id: 1 }, value: { type: 'bytes', id: 2 } } } } },
        rpc: {
          nested: {
            Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 }, details: { rule: 'repeated', type: 'google.protobuf.Any', id: 3 } } },
            BadRequest: {
              fields: { field_violations: { rule: 'repeated', type: 'FieldViolation', id: 1 } },
              nested: { FieldViolation: { fields: { field: { type: 'string', id: 1 }, description: { type: 'string', id: 2 } } } },
            },
          },
        },
      },
    },
  },
});
const Status = root.lookupType('google.rpc.Status');
const BadRequest = root.lookupType('google.rpc.BadRequest');

interface FieldViolation { field: string; description: string }
interface BadRequestDetail { '@type': typeof BAD_REQUEST_TYPE; field_violations: FieldViolation[] }

function isBadRequest(d: unknown): d is BadRequestDetail {
  return typeof d === 'object' && d !== null && (d as { '@type'?: unknown })['@type'] === BAD_REQUEST_TYPE
    && Array.isArray((d as { field_violations?: unknown }).field_violations);
}

/** The trailer value for a status with details; undefined when none can be sent (only BadRequest is). */
export function encodeStatusDetails(code: number, message: string, details: readonly unknown[]): Buffer | undefined {
  const packed = details.filter(isBadRequest).map((d) => ({
    type_url: BAD_REQUEST_TYPE,
    value: BadRequest.encode(BadRequest.fromObject({ field_violations: d.field_violations.map((v) => ({ field: String(v.field), description: String(v.description) })) })).finish(),
  }));
  if (packed.length === 0) return undefined;
  return Buffer.from(Status.encode(Status.fromObject({ code, message, details: packed })).finish());
}

/** The details of a `grpc-status-details-bin` value in the gateway's JSON form; [] when it cannot be read. */
export function decodeStatusDetails(value: Buffer): unknown[] {
  try {
    const status = Status.toObject(Status.decode(value), { defaults: true }) as { details: { type_url: string; value: Uint8Array }[] };
    return status.details.map((any) => {
      if (any.type_url !== BAD_REQUEST_TYPE) return { '@type': any.type_url };
      const br = BadRequest.toObject(BadRequest.decode(any.value), { defaults: true }) as { field_violations: FieldViolation[] };
      return { '@type': BAD_REQUEST_TYPE, field_violations: br.field_violations.map((v) => ({ field: v.field, description: v.description })) };
    });
  } catch {
    return [];
  }
}
