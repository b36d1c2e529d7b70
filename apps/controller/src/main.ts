// sluice-controller: the configuration first, then the rest of the controller (controller.ts), so that
// a start that ends on its configuration (a problem: exit 2; --print-config; --help) loads the
// configuration library only, not the controller's modules (about two thirds of such a start's CPU).
import { loadConfigOrExit } from '@sluice/config';

// Configuration first: every problem is printed and the process exits 2 before anything binds a port.
const loaded = loadConfigOrExit({ process: 'controller', argv: process.argv.slice(2), env: process.env });

const { runController } = await import('./controller.js');
process.exit(await runController(loaded));
