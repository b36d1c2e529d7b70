import Table from 'cli-table3';
import { stringify } from 'yaml';
import { UsageError } from './errors.js';

export const OUTPUT_FORMATS = ['table', 'json', 'yaml'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function outputFormat(text: string): OutputFormat {
  const f = OUTPUT_FORMATS.find((x) => x === text);
  if (f === undefined) throw new UsageError(`-o ${JSON.stringify(text)}: want one of ${OUTPUT_FORMATS.join(', ')}`);
  return f;
}

/** Rows for a person: a header and cells (text; long cells cut with an ellipsis). */
export interface Rows {
  head: string[];
  rows: string[][];
}

const CELL_MAX = 60;

function cell(text: string): string {
  return text.length > CELL_MAX ? `${text.slice(0, CELL_MAX - 1)}…` : text;
}

/** `value` in the chosen format; `table` uses `rows(value)` (or YAML when the value has no table form). */
export function render(value: unknown, format: OutputFormat, rows?: (v: unknown) => Rows): string {
  if (format === 'json') return `${JSON.stringify(value, null, 2)}\n`;
  if (format === 'yaml' || rows === undefined) return stringify(value, { lineWidth: 0 });
  const r = rows(value);
  if (r.rows.length === 0) return '(none)\n';
  const table = new Table({ head: r.head, style: { head: [], border: [] }, chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' } });
  for (const row of r.rows) table.push(row.map(cell));
  return `${table.toString()}\n`;
}
