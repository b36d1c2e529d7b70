// `sluicectl blueprints`: list the blueprints, show one's values schema and example, and generate a
// Policy resource (and its circuit as Mermaid) from a values file.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { Blueprint } from './blueprints/index.js';
import { CliError, UsageError } from './errors.js';
import { render, type OutputFormat, type Rows } from './output.js';

interface Io { out(text: string): void }

// The blueprints (and the values' schemas) load only when a blueprints command runs, not with every command.
const blueprints = (): Promise<typeof import('./blueprints/index.js')> => import('./blueprints/index.js');

async function blueprintNamed(name: string): Promise<Blueprint> {
  const { BLUEPRINTS, findBlueprint } = await blueprints();
  const b = findBlueprint(name);
  if (b === undefined) throw new UsageError(`no blueprint ${JSON.stringify(name)}; there are ${BLUEPRINTS.map((x) => x.name).join(', ')}`);
  return b;
}

const listRows = (v: unknown): Rows => ({
  head: ['NAME', 'DESCRIPTION'],
  rows: (v as Array<{ name: string; description: string }>).map((b) => [b.name, b.description]),
});

/** Adds `blueprints list|describe|values|generate` to `program`; `format` is the global -o. */
export function addBlueprintCommands(program: Command, io: Io, format: () => OutputFormat): void {
  const bp = program.command('blueprints').description('Policies from blueprints: a values file in, a Policy resource out');

  bp.command('list')
    .description('List the blueprints with a line on each')
    .action(async () => {
      const { BLUEPRINTS } = await blueprints();
      io.out(render(BLUEPRINTS.map((b) => ({ name: b.name, description: b.description })), format(), listRows));
    });

  bp.command('describe')
    .description('Print the fields of a blueprint\'s values file with their defaults; -o json or yaml: its JSON Schema')
    .argument('<name>', 'blueprint name')
    .option('--markdown', 'print the fields as the Markdown table of the sluicectl guide')
    .action(async (name: string, opts: { markdown?: boolean }) => {
      const { blueprintMarkdown, fieldsText } = await blueprints();
      const b = await blueprintNamed(name);
      const f = format();
      if (opts.markdown === true) io.out(blueprintMarkdown(b));
      else io.out(f === 'table' ? fieldsText(b) : render(b.schema, f));
    });

  bp.command('values')
    .description('Print an example values file of a blueprint, each field with its description')
    .argument('<name>', 'blueprint name')
    .option('--output-file <file>', 'write it to this file instead of standard output')
    .action(async (name: string, opts: { outputFile?: string }) => {
      const { exampleValuesYaml } = await blueprints();
      const text = exampleValuesYaml(await blueprintNamed(name));
      if (opts.outputFile === undefined) io.out(text);
      else writeFileSync(opts.outputFile, text);
    });

  bp.command('generate')
    .description('Generate a Policy resource from a values file: <output-dir>/<policy_name>.yaml, and its circuit as a Mermaid flowchart, <policy_name>.mmd')
    .argument('<name>', 'blueprint name')
    .requiredOption('--values-file <file>', 'YAML or JSON values (sluicectl blueprints values NAME prints an example)')
    .requiredOption('--output-dir <dir>', 'directory to write to (created when missing)')
    .option('--overwrite', 'replace files already there')
    .addHelpText('after', '\nExamples:\n  sluicectl blueprints values rate-limiting --output-file values.yaml\n  sluicectl blueprints generate rate-limiting --values-file values.yaml --output-dir policies\n  sluicectl apply policy -f policies/rate-limit-per-user.yaml')
    .action(async (name: string, opts: { valuesFile: string; outputDir: string; overwrite?: boolean }) => {
      const { generatePolicy, readValuesFile } = await blueprints();
      const b = await blueprintNamed(name);
      const policy = generatePolicy(b, readValuesFile(opts.valuesFile), opts.valuesFile);
      // The compiler loads only here: the values may pass their schema and still make a policy it refuses (a bad label filter).
      const { circuitPicture, toMermaid } = await import('./graph.js');
      const picture = circuitPicture(policy.metadata.name, policy.spec);
      if (picture.problems.length > 0) {
        throw new CliError(`${opts.valuesFile}: the policy generated does not compile: ${picture.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`);
      }
      const policyFile = join(opts.outputDir, `${policy.metadata.name}.yaml`);
      const graphFile = join(opts.outputDir, `${policy.metadata.name}.mmd`);
      if (opts.overwrite !== true) {
        const there = [policyFile, graphFile].filter((f) => existsSync(f));
        if (there.length > 0) throw new CliError(`${there.join(' and ')} already ${there.length === 1 ? 'exists' : 'exist'} (--overwrite replaces)`);
      }
      try {
        mkdirSync(opts.outputDir, { recursive: true });
        writeFileSync(policyFile, `# Generated by sluicectl blueprints generate ${b.name} from ${opts.valuesFile}\n${stringify(policy, { lineWidth: 0 })}`);
        writeFileSync(graphFile, toMermaid(picture));
      } catch (err) {
        throw new CliError(`cannot write to ${opts.outputDir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
      }
      io.out(`${policyFile}\n${graphFile}\n`);
    });
}
