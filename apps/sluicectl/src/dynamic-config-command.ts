// `sluicectl apply dynamic-config`: a policy's dynamic configuration, posted to the controller.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parse } from 'yaml';
import type { ControllerClient } from './client.js';
import { CliError } from './errors.js';
import { render, type OutputFormat } from './output.js';

interface Io { out(text: string): void }

/** The values of a YAML or JSON file holding one object: the dynamic configuration, or a resource's `dynamicConfig`. */
export function readDynamicConfig(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CliError(`${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parse(text) as unknown;
  } catch (err) {
    throw new CliError(`${path}: not YAML or JSON: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(doc)) throw new CliError(`${path}: a dynamic configuration is an object (values by the keys the policy's components name)`);
  // A Policy resource: its dynamicConfig.
  if (doc.kind === 'Policy') {
    if (!isObject(doc.dynamicConfig)) throw new CliError(`${path}: the Policy resource has no dynamicConfig object`);
    return doc.dynamicConfig;
  }
  return doc;
}

/** Adds `apply dynamic-config` under `apply`. */
export function addDynamicConfigCommand(apply: Command, io: Io, withClient: <T>(fn: (c: ControllerClient, format: OutputFormat) => Promise<T>) => Promise<T>): void {
  apply.command('dynamic-config')
    .description('Set a policy\'s dynamic configuration (the values its components read by key, e.g. a dry_run_config_key) on the controller')
    .requiredOption('--policy <name>', 'the policy')
    .requiredOption('-f, --file <file>', 'YAML or JSON: the configuration object, or a Policy resource whose dynamicConfig is sent')
    .addHelpText('after', '\nExamples:\n  sluicectl apply dynamic-config --policy service-protection --file dry-run.yaml\n  echo "dry_run: true" > dry-run.yaml')
    .action(async (opts: { policy: string; file: string }) => {
      const config = readDynamicConfig(opts.file);
      await withClient(async (c, format) => {
        const reply = await c.call('POST', `/v1/dynamic-configs/${encodeURIComponent(opts.policy)}`, { dynamic_config: config });
        io.out(format === 'table' ? `dynamic configuration of policy ${opts.policy} applied (${opts.file})\n` : render(reply, format));
      });
    });
}
