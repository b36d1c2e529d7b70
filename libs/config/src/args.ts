import { parseArgs } from 'node:util';
import { problem, type ConfigProblem } from './problem.js';

/** What the command line asks for. */
export interface CliArgs {
  /** `--config PATH`: a file that must exist. */
  configFile?: string;
  printConfig: boolean;
  help: boolean;
}

/** Parses `--config PATH`, `--print-config`, `--help`; anything else is a problem. */
export function parseCliArgs(argv: readonly string[]): { args: CliArgs; problems: ConfigProblem[] } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string', short: 'c' },
        'print-config': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    });
    const problems: ConfigProblem[] = [];
    if (values.config === '') {
      problems.push(problem({ path: '(argv)', env: '', rule: 'cli', value: '' }, '--config needs a file path'));
    }
    return {
      args: { configFile: values.config, printConfig: values['print-config'] === true, help: values.help === true },
      problems,
    };
  } catch (err) {
    const message = (err as Error).message.split('\n')[0];
    return {
      args: { printConfig: false, help: false },
      problems: [problem({ path: '(argv)', env: '', rule: 'cli', value: [...argv] }, `${message} (see --help)`)],
    };
  }
}

export function usage(service: string, envPrefix: string, defaultConfigFile: string): string {
  return [
    `Usage: sluice-${service} [--config PATH] [--print-config] [--help]`,
    '',
    `  -c, --config PATH   YAML configuration file (default ${defaultConfigFile}, used when present)`,
    '      --print-config  print the effective configuration as JSON (secrets masked) and exit',
    '  -h, --help          print this help and exit',
    '',
    `Every key can also be set by an environment variable: ${envPrefix} + the key path upper-cased`,
    `with dots turned into underscores, such as ${envPrefix}LOG_LEVEL=debug. Lists, maps and objects are JSON.`,
    'Precedence: environment over file over defaults. Reference: docs/configuration.md.',
    '',
  ].join('\n');
}
