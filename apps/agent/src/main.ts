// sluice-agent: the configuration first, then the rest of the agent (agent.ts), so that a start that
// ends on its configuration (a problem: exit 2; --print-config; --help) loads the configuration library
// only, not the agent's modules (about two thirds of such a start's CPU).
import { loadConfigOrExit } from '@sluice/config';

// Answers of 1-2 KB (a Check with ten limiter decisions) and their gRPC copies are slices of
// Node's Buffer pool; the default 8 KiB pool is a new ArrayBuffer every few answers (~4 us each).
// At 64 KiB it is one every few dozen (docs/guides/agent-memory.md).
Buffer.poolSize = 64 * 1024;

// Configuration first: every problem is printed and the process exits 2 before anything binds a port.
const loaded = loadConfigOrExit({
  process: 'agent',
  argv: process.argv.slice(2),
  env: process.env,
  flags: {
    'local-limiters': { type: 'string', value: 'FILE', description: 'YAML list of local token-bucket rate limiters (docs/guides/local-limiters.md)' },
  },
});

const { runAgent } = await import('./agent.js');
process.exit(await runAgent(loaded));
