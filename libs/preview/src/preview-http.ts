import express, { Router, type Request, type Response } from 'express';
import { InvalidArgumentError, PayloadTooLargeError, UnimplementedError, UnsupportedMediaTypeError, toGatewayError } from '@sluice/errors';
import { PREVIEW_BODY_LIMIT_BYTES, PREVIEW_DISABLED_MESSAGE } from './preview-config.js';
import type { PreviewKind, PreviewRegistry } from './preview-registry.js';
import { previewParams, samplesFromQuery, serviceFrom } from './preview-request.js';

export const PREVIEW_HTTP_REQUESTS_PATH = '/v1/flowcontrol/preview/http_requests/:control_point';
export const PREVIEW_LABELS_PATH = '/v1/flowcontrol/preview/labels/:control_point';

function sendError(res: Response, err: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const { status, body } = toGatewayError(err);
  res.status(status).json(body);
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

const jsonParser = express.json({ limit: PREVIEW_BODY_LIMIT_BYTES, strict: false, type: () => true });

/** The JSON body (undefined when there is none); 415 for another content type, 413 past 1 MiB, 400 when malformed. */
function readBody(req: Request, res: Response): Promise<unknown> {
  if (!hasBody(req)) return Promise.resolve(undefined);
  if (!req.is('application/json')) return Promise.reject(new UnsupportedMediaTypeError('request body must be application/json'));
  return new Promise((resolve, reject) => {
    jsonParser(req, res, (err?: unknown) => {
      if (err === undefined || err === null) {
        resolve(req.body as unknown);
        return;
      }
      const type = (err as { type?: string }).type;
      if (type === 'entity.too.large') reject(new PayloadTooLargeError(`request body exceeds ${PREVIEW_BODY_LIMIT_BYTES} bytes`));
      else if (type === 'encoding.unsupported' || type === 'charset.unsupported') reject(new UnsupportedMediaTypeError('unsupported body encoding'));
      else reject(new InvalidArgumentError('request body is not valid JSON', 'body'));
    });
  });
}

/**
 * The preview's HTTP routes, served in-process (the gateway convention for
 * errors): the call is tied to its connection, so a client that goes away
 * ends its preview at once, and HTTP samples leave as plain JSON.
 */
export function previewRouter(registry: PreviewRegistry | undefined, maxWaitMs: number): Router {
  const router = Router();
  const handler = (kind: PreviewKind) => (req: Request, res: Response): void => {
    void (async () => {
      if (registry === undefined) throw new UnimplementedError(PREVIEW_DISABLED_MESSAGE);
      const query = req.query as Record<string, unknown>;
      const samples = samplesFromQuery(query.samples);
      const service = serviceFrom(query.service);
      const body = await readBody(req, res);
      const p = previewParams(req.params.control_point, samples, service, body);
      const preview = registry.start({ kind, ...p, waitMs: maxWaitMs });
      const onClose = (): void => preview.cancel();
      res.once('close', onClose);
      const result = await preview.result;
      res.removeListener('close', onClose);
      if (!res.headersSent && !res.destroyed) res.status(200).json({ samples: result });
    })().catch((err: unknown) => sendError(res, err));
  };
  router.post(PREVIEW_HTTP_REQUESTS_PATH, handler('http'));
  router.post(PREVIEW_LABELS_PATH, handler('labels'));
  return router;
}
