import express, { type Request, type Response } from 'express';
import { httpStatusFromGrpcCode, GrpcCode } from '@sluice/errors';
import { AgentCallError, type AgentHub } from './hub.js';
import { HTTP_FUNCTION, type HttpCallResult } from './protocol.js';
import { allowedAgentRoute } from './routes-allowed.js';

export interface AgentRoutesOptions {
  /** How long the controller waits for an agent's answer (a preview waits up to 30 s). Default 35 s. */
  timeoutMs?: number;
  /** A fan-out's answers beyond this many JSON bytes are left out and named (default 8 MiB). */
  maxAnswerBytes?: number;
}

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
  const timeoutMs = opts.timeoutMs ?? 35_000;
  const maxAnswerBytes = opts.maxAnswerBytes ?? 8 << 20;
  const router = express.Router();
  router.use(express.json({ limit: '1mb' }));
  router.get('/', (_req, res) => { res.json({ agents: hub.list() }); });
  router.use((req: Request, res: Response) => {
    const m = /^\/([^/]+)\/(?:([^/]+)\/)?(v1\/.*)$/.exec(req.path);
    const method = req.method === 'GET' || req.method === 'POST' ? req.method : undefined;
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    if (m === null || method === undefined) return sendError(res, GrpcCode.NOT_FOUND, 'want /v1/agents/{group}/v1/... or /v1/agents/{group}/{agent}/v1/..., GET or POST');
    const [, group, agent, rest] = m as unknown as [string, string, string | undefined, string];
    const path = `/${rest}${query}`;
    if (!allowedAgentRoute(method, path)) return sendError(res, GrpcCode.NOT_FOUND, `${method} /${rest} is not an agent function`);
    const args = { method, path, ...(method === 'POST' && req.body !== undefined ? { body: req.body as unknown } : {}) };
    const ask = (name: string): Promise<HttpCallResult> => hub.call(group, name, HTTP_FUNCTION, args, timeoutMs) as Promise<HttpCallResult>;
    if (agent !== undefined) {
      ask(agent).then(
        (r) => { res.status(r.status).json(r.body); },
        (err: unknown) => sendError(res, err instanceof AgentCallError ? err.code : GrpcCode.INTERNAL, err instanceof Error ? err.message : String(err)),
      );
      return;
    }
    const agents = hub.group(group);
    if (agents.length === 0) return sendError(res, GrpcCode.NOT_FOUND, `no agent of group ${group} is connected`);
    void Promise.allSettled(agents.map((a) => ask(a.agent_name))).then((settled) => {
      let bytes = 0;
      const answers: Array<{ agent_name: string } & HttpCallResult> = [];
      const missing: Array<{ agent_name: string; error: string }> = [];
      settled.forEach((s, i) => {
        const name = agents[i]?.agent_name ?? '';
        if (s.status === 'rejected') return missing.push({ agent_name: name, error: s.reason instanceof Error ? s.reason.message : String(s.reason) });
        bytes += Buffer.byteLength(JSON.stringify(s.value.body ?? null));
        if (bytes > maxAnswerBytes) return missing.push({ agent_name: name, error: `answer left out: the answers pass ${maxAnswerBytes} bytes` });
        answers.push({ agent_name: name, ...s.value });
      });
      res.json({ agent_group: group, answers, missing });
    });
  });
  return router;
}
