// A process holding an agent-functions stream to the endpoint given as argument (killed by the hub's test).
import { AgentLink } from '../agent-link.js';
import { TEST_GRPC_CLIENT } from './grpc-client.js';

const link = new AgentLink({
  endpoints: [process.argv[2] ?? ''], grpc: TEST_GRPC_CLIENT,
  hello: () => ({ agent_group: 'g', agent_name: 'child', address: 'x', version: '1' }),
  inject: async () => ({ status: 200, body: {} }),
});
link.start();
