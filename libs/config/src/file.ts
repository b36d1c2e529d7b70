import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isNode, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { problem, type ConfigProblem } from './problem.js';

/** A parsed YAML configuration file. */
export interface ConfigFile {
  readonly name: string;
  /** The mapping at the top of the file (empty for an empty file). */
  readonly data: Record<string, unknown>;
  /** `name:line:column` of the value at a key path, when the file sets it. */
  position(segments: readonly string[]): string | undefined;
}

export type FileReadResult = { file: ConfigFile | undefined; problems: ConfigProblem[] };

function fileProblem(name: string, detail: string, origin?: string): ConfigProblem {
  return problem({ path: '(file)', env: '', rule: 'yaml', value: undefined, origin }, `${name}: ${detail}`);
}

/** Parses YAML text; malformed YAML is a problem per error, with line and column. */
export function parseConfigText(name: string, text: string): FileReadResult {
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  } catch (err) {
    return { file: undefined, problems: [fileProblem(name, `not valid YAML: ${(err as Error).message}`)] };
  }
  if (doc.errors.length > 0) {
    return {
      file: undefined,
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const at = pos === undefined ? '' : ` at line ${pos.line}, column ${pos.col}`;
        return fileProblem(name, `malformed YAML${at}: ${e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
      }),
    };
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return { file: undefined, problems: [fileProblem(name, `not valid YAML: ${(err as Error).message}`)] };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { file: undefined, problems: [fileProblem(name, 'the top of the file must be a mapping of keys (such as "server:")')] };
  }
  // The position of a map entry is that of its key; of a list element, the element itself.
  const position = (segments: readonly string[]): string | undefined => {
    if (segments.length === 0) return undefined;
    try {
      const parent: unknown = segments.length === 1 ? doc.contents : doc.getIn(segments.slice(0, -1), true);
      const last = segments[segments.length - 1];
      let found: unknown;
      if (isMap(parent)) found = parent.items.find((pair) => isScalar(pair.key) && String(pair.key.value) === last)?.key;
      else if (isSeq(parent) && /^\d+$/.test(last)) found = parent.items[Number(last)];
      if (!isNode(found) || found.range === undefined || found.range === null) return undefined;
      const { line, col } = lineCounter.linePos(found.range[0]);
      return `${name}:${line}:${col}`;
    } catch {
      return undefined;
    }
  };
  return { file: { name, data: data as Record<string, unknown>, position }, problems: [] };
}

/**
 * Reads the configuration file. A missing file is fine when it is only the
 * default location (`required` false); a missing `--config` file is a problem.
 */
export function readConfigFile(name: string, required: boolean): FileReadResult {
  let text: string;
  try {
    text = readFileSync(name, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !required) return { file: undefined, problems: [] };
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, not a file' : `cannot be read (${code ?? (err as Error).message})`;
    return { file: undefined, problems: [problem({ path: '(file)', env: '', rule: 'file' }, `${name}: ${why}`)] };
  }
  return parseConfigText(name, text);
}
