import type * as grpc from '@grpc/grpc-js';
import { InvalidArgumentError, UnimplementedError } from '@sluice/errors';
import { deadlineMsOf } from '@sluice/flowcontrol';
import { jsonToStruct, structToJson, StructConversionError, type JsonObject, type ProtoStruct } from '@sluice/proto';
import { unary } from '@sluice/server';
import { PREVIEW_DISABLED_MESSAGE, PREVIEW_STRUCT_MAX_DEPTH } from './preview-config.js';
import type { PreviewKind, PreviewRegistry } from './preview-registry.js';
import { previewParams, samplesFromMessage, serviceFrom } from './preview-request.js';
import { mapInSlices } from './slices.js';

interface PreviewRequestMessage {
  control_point: string;
  samples: number;
  label_matcher: ProtoStruct | null;
  service: string;
}

/**
 * Margin kept before the caller's deadline, so the samples arrive in time: a tenth of the time left,
 * between 50 ms and 1 s (a busy process answers some tens of milliseconds late).
 */
export function deadlineMarginMs(leftMs: number): number {
  return Math.min(1000, Math.max(50, leftMs / 10));
}

function filterOf(s: ProtoStruct | null | undefined): JsonObject {
  if (s === null || s === undefined) return {};
  try {
    return structToJson(s);
  } catch (err) {
    if (err instanceof StructConversionError) throw new InvalidArgumentError(`label_matcher: ${err.message}`, 'label_matcher');
    throw err;
  }
}

/** sluice.flowcontrol.preview.v1.FlowPreviewService over gRPC. */
export function previewServiceImpl(registry: PreviewRegistry | undefined, maxWaitMs: number): grpc.UntypedServiceImplementation {
  const handler = (kind: PreviewKind) => unary<PreviewRequestMessage, object>(async (req, call) => {
    if (registry === undefined) throw new UnimplementedError(PREVIEW_DISABLED_MESSAGE);
    const p = previewParams(req.control_point, samplesFromMessage(req.samples), serviceFrom(req.service), filterOf(req.label_matcher));
    const deadline = deadlineMsOf(call.getDeadline());
    const waitMs = deadline === undefined ? maxWaitMs : Math.min(maxWaitMs, deadline - Date.now() - deadlineMarginMs(deadline - Date.now()));
    const preview = registry.start({ kind, ...p, waitMs });
    const onCancel = (): void => preview.cancel();
    call.once('cancelled', onCancel);
    const samples = await preview.result;
    call.removeListener('cancelled', onCancel);
    return kind === 'http' ? { samples: await mapInSlices(samples, (s) => jsonToStruct(s, PREVIEW_STRUCT_MAX_DEPTH)) } : { samples };
  });
  return { PreviewFlowLabels: handler('labels'), PreviewHTTPRequests: handler('http') };
}
