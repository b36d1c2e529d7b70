import { loadConfigOrExit } from '@sluice/config';

// Configuration first: every problem is printed and the process exits 2 before anything binds a port.
const { config } = loadConfigOrExit({ process: 'agent', argv: process.argv.slice(2), env: process.env });

process.stderr.write(`sluice-agent: configuration loaded (listener ${config.server.listener.addr})\n`);
process.exit(0);
