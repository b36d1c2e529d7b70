import express, { type Request, type Response } from 'express';
import { toGatewayError } from '@sluice/errors';
import { runWhatIf, type WhatIfDeps } from './whatif.js';
import { parseWhatIfRequest } from './whatif-request.js';

export const WHATIF_PATH = '/v1/whatif';

/**
 * `POST /v1/whatif`: a policy tried on the live flows of a control point (see runWhatIf). Errors
 * are gateway bodies `{code, message, details}`: 400 with the JSON path for a bad request or
 * policy, 404 when no agent of the group is connected.
 */
export function whatIfRouter(deps: WhatIfDeps): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  router.post('/', (req: Request, res: Response) => {
    void (async () => {
      try {
        res.json(await runWhatIf(parseWhatIfRequest(req.body), deps));
      } catch (err) {
        const e = toGatewayError(err);
        res.status(e.status).json(e.body);
      }
    })();
  });
  return router;
}
