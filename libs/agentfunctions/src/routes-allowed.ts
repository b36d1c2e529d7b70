/**
 * The agent routes the controller may call through agent functions: reads and previews, never a
 * change. A path outside these is refused by the agent itself, whatever the controller asks.
 */
const ALLOWED: ReadonlyArray<{ method: 'GET' | 'POST'; path: RegExp }> = [
  { method: 'GET', path: /^\/v1\/flowcontrol\/controlpoints$/ },
  { method: 'POST', path: /^\/v1\/flowcontrol\/preview\/(http_requests|labels)\/[^/]+$/ },
  { method: 'GET', path: /^\/v1\/discovery\/entities$/ },
  { method: 'GET', path: /^\/v1\/policies\/enforced$/ },
  { method: 'GET', path: /^\/v1\/peers$/ },
  { method: 'GET', path: /^\/v1\/distcache\/stats$/ },
];

export function allowedAgentRoute(method: string, pathAndQuery: string): boolean {
  const path = pathAndQuery.split('?')[0] ?? '';
  if (path.includes('..') || path.includes('//')) return false;
  return ALLOWED.some((a) => a.method === method && a.path.test(path));
}

export const AGENT_FUNCTION_ROUTES = ALLOWED.map((a) => `${a.method} ${a.path.source.replace(/^\^\\?|\$$/g, '').replace(/\\\//g, '/')}`);
