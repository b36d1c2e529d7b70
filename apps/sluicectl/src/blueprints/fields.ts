// A blueprint's values as a list of fields (path, type, default, meaning): for `blueprints describe`
// and the sluicectl guide, which holds exactly what `describe NAME --markdown` prints.
import type { Blueprint, JsonSchema } from './blueprint.js';

export interface Field {
  /** `a.b`; the fields of a list's items follow the list's own path (`selectors.control_point`). */
  path: string;
  type: string;
  /** `required`, the default as JSON, or empty. */
  default: string;
  description: string;
}

/** Every field of a values schema, parents before their children. */
export function fieldsOf(schema: JsonSchema, prefix = ''): Field[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  return Object.entries(props).flatMap(([key, s]) => {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const items = s.type === 'array' ? (s.items as JsonSchema) : undefined;
    const type = items !== undefined ? `list of ${String(items.type)}` : String(s.type);
    const dflt = required.includes(key) ? 'required' : s.default !== undefined ? JSON.stringify(s.default) : '';
    return [{ path, type, default: dflt, description: String(s.description ?? '') }, ...fieldsOf(items ?? s, path)];
  });
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');

/** The blueprint's section of the sluicectl guide. */
export function blueprintMarkdown(b: Blueprint): string {
  const rows = fieldsOf(b.schema).map((f) =>
    `| \`${f.path}\` | ${f.type} | ${f.default === '' || f.default === 'required' ? f.default : `\`${cell(f.default)}\``} | ${cell(f.description)} |`);
  return `### \`${b.name}\`\n\n${b.description}.\n\n| field | type | default | meaning |\n|---|---|---|---|\n${rows.join('\n')}\n`;
}

/** The fields as text for a terminal: one per line, indented by depth. */
export function fieldsText(b: Blueprint): string {
  const lines = fieldsOf(b.schema).map((f) => {
    const depth = f.path.split('.').length - 1;
    const name = f.path.split('.').pop() ?? f.path;
    return `${'  '.repeat(depth)}${name} (${f.type}${f.default === '' ? '' : f.default === 'required' ? ', required' : `, default ${f.default}`}): ${f.description}`;
  });
  return `${b.name}: ${b.description}\n\n${lines.join('\n')}\n`;
}
