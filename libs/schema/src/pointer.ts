/** A JSON pointer's segments: `/a/b~1c` → `['a', 'b/c']`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A value as a message shows it: JSON, cut at `max` characters; NaN and ±Infinity by name. */
export function showValue(value: unknown, max = 80): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
