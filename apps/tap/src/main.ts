#!/usr/bin/env node
// sluice-tap: the sidecar traffic tap. Wiring only; the logic is in @sluice/tap.
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createJsonLogger, parseTapFlags, startTap } from '@sluice/tap';

const parsed = parseTapFlags(process.argv.slice(2), process.env);
if (parsed.kind === 'help') {
  process.stdout.write(`${parsed.text}\n`);
  process.exit(0);
}
if (parsed.kind === 'problems') {
  for (const p of parsed.problems) process.stderr.write(`sluice-tap: ${p}\n`);
  process.exit(2);
}
const options = parsed.options;
const logger = createJsonLogger(options.logLevel);
const registry = new Registry();
collectDefaultMetrics({ register: registry });

let tap;
try {
  tap = await startTap(options, { logger, registry });
} catch (err) {
  logger.error('tap failed to start', { error: err instanceof Error ? err.message : String(err) });
  process.exit(1);
}

const running = tap;
let signalled = false;
const stop = (signal: NodeJS.Signals): void => {
  if (signalled) {
    logger.warn('second signal: exiting now', { signal });
    process.exit(1);
  }
  signalled = true;
  logger.info('signal received', { signal });
  running.shutdown().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error('shutdown failed', { error: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    },
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
