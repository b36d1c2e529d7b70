export { AgentLink, agentName, type AgentLinkOptions } from './agent-link.js';
export { AgentHub, AgentCallError, type ConnectedAgent } from './hub.js';
export { agentFunctionsRouter, type AgentRoutesOptions } from './routes.js';
export { agentFunctionsService, agentsService, AGENT_FUNCTIONS_SERVICE, HTTP_FUNCTION } from './protocol.js';
export { agentsServiceImpl } from './agents-service.js';
export { callAgentRoute, type AgentRouteCall, type FanOutAnswer, type FanOutOptions } from './fan-out.js';
export { allowedAgentRoute, AGENT_FUNCTION_ROUTES } from './routes-allowed.js';
export { agentFunctionsToken, tokenOfFile, AgentFunctionsTokenError } from './token.js';
