import { loadConfigOrExit } from '@sluice/config';
import { createProcessRuntime } from '@sluice/runtime';

// Configuration first: every problem is printed and the process exits 2 before anything binds a port.
const { config } = loadConfigOrExit({ process: 'controller', argv: process.argv.slice(2), env: process.env });

const runtime = createProcessRuntime(config, 'controller');
process.exit(await runtime.run());
