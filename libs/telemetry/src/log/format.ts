import winston from 'winston';

type Format = winston.Logform.Format;
type TransformableInfo = winston.Logform.TransformableInfo;

const LEVEL = Symbol.for('level');

/** JSON.stringify replacer: errors keep their name, message, code and stack; bigints become strings. */
export function logReplacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) out.code = code;
    if (value.stack !== undefined) out.stack = value.stack;
    if (value.cause !== undefined) out.cause = value.cause;
    return out;
  }
  return value;
}

/** Reorders an entry into the line's fields: timestamp, level, service, msg, meta (when not empty). */
const toLine = winston.format((info: TransformableInfo) => {
  const line: Record<string | symbol, unknown> = {
    timestamp: info.timestamp,
    level: info.level,
    service: info.service,
    msg: info.message,
  };
  const meta = info.meta as Record<string, unknown> | undefined;
  if (meta !== undefined && Object.keys(meta).length > 0) line.meta = meta;
  line[LEVEL] = info[LEVEL];
  return line as unknown as TransformableInfo;
});

/** One JSON object per line, fields in a fixed order, cycles and errors handled. */
export function jsonLineFormat(): Format {
  return winston.format.combine(
    toLine(),
    winston.format.json({ deterministic: false, replacer: logReplacer }),
  );
}

function metaText(meta: Record<string, unknown> | undefined): string {
  if (meta === undefined) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(meta)) {
    const text = typeof value === 'string' && !/[\s"=]/.test(value) ? value : JSON.stringify(value, logReplacer);
    parts.push(`${key}=${text}`);
  }
  return parts.length > 0 ? ` ${parts.join(' ')}` : '';
}

/** Human-readable console lines: `time LEVEL service message key=value…`, coloured on a terminal. */
export function prettyFormat(colors: boolean): Format {
  const print = winston.format.printf((info) => {
    const level = String(info.level);
    return `${String(info.timestamp)} ${level} ${String(info.service)} ${String(info.message)}${metaText(info.meta as Record<string, unknown> | undefined)}`;
  });
  const upper = winston.format((info) => {
    info.level = info.level.toUpperCase().padEnd(5);
    return info;
  });
  if (!colors) return winston.format.combine(upper(), print);
  return winston.format.combine(
    upper(),
    winston.format.colorize({
      colors: { panic: 'magenta', fatal: 'red', error: 'red', warn: 'yellow', info: 'green', debug: 'blue', trace: 'gray' },
    }),
    print,
  );
}
