import express, { type Request, type Response } from 'express';
import { httpStatusFromGrpcCode, GrpcCode } from '@sluice/errors';
import { callAgentRoute, type FanOutOptions } from './fan-out.js';
import { AgentCallError, type AgentHub } from './hub.js';
import type { HttpCallResult } from './protocol.js';

export type AgentRoutesOptions = FanOutOptions;

function sendError(res: Response, code: number, message: string): void {
  res.status(httpStatusFromGrpcCode(code)).json({ code, message, details: [] });
}

/**
 * `GET /v1/agents` (the connected agents), and an agent's read-only routes through the controller:
 * `/v1/agents/{group}/{agent}/v1/...` asks one agent and answers what it answered;
 * `/v1/agents/{group}/v1/...` asks every agent of the group at once and answers
 * `{agent_group, answers: [{agent_name, status, body}], missing: [{agent_name, error}]}`, an agent
 * that did not answer in time (or whose answer would pass the size bound) named in `missing`.
 */
export function agentFunctionsRouter(hub: AgentHub, opts: AgentRoutesOptions = {}): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  router.get('/', (_req, res) => { res.json({ agents: hub.list() }); });
  router.use((req: Request, res: Response) => {
    const m = /^\/([^/]+)\/(?:([^/]+)\/)?(v1\/.*)$/.exec(req.path);
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    if (m === null || (req.method !== 'GET' && req.method !== 'POST')) return sendError(res, GrpcCode.NOT_FOUND, 'want /v1/agents/{group}/v1/... or /v1/agents/{group}/{agent}/v1/..., GET or POST');
    const [, group, agent, rest] = m as unknown as [string, string, string | undefined, string];
    callAgentRoute(hub, {
      agentGroup: group, ...(agent !== undefined ? { agentName: agent } : {}), method: req.method, path: `/${rest}${query}`,
      ...(req.method === 'POST' && req.body !== undefined ? { body: req.body as unknown } : {}),
    }, opts).then(
      (answer) => {
        if (agent !== undefined) res.status((answer as HttpCallResult).status).json((answer as HttpCallResult).body);
        else res.json(answer);
      },
      (err: unknown) => sendError(res, err instanceof AgentCallError ? err.code : GrpcCode.INTERNAL, err instanceof Error ? err.message : String(err)),
    );
  });
  return router;
}
