import { writeFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { CliError } from './errors.js';
import type { PolicyDocument } from './policy-file.js';

/** `compile --svg FILE`: each policy's circuit as an SVG picture (FILE, or FILE's stem-<policy>.svg for several). */
export async function drawSvgs(file: string, docs: PolicyDocument[], io: { err(text: string): void }): Promise<void> {
  // dagre and the compiler load only for this command.
  const [{ circuitPicture }, { toSvg }] = await Promise.all([import('./graph.js'), import('./svg.js')]);
  for (const d of docs) {
    const target = docs.length === 1 ? file : join(dirname(file), `${basename(file, extname(file))}-${d.name}.svg`);
    try {
      writeFileSync(target, toSvg(d.name, circuitPicture(d.name, d.spec)));
    } catch (err) {
      throw new CliError(`cannot write ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
    io.err(`${target}: the circuit of policy ${d.name}\n`);
  }
}
