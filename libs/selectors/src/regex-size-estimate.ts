const COUNTED_REPEAT = /\{(\d+)(?:(,)(\d*))?\}/y;
/** `(?i)`, `(?s-m)`: sets flags, matches nothing, and leaves the previous atom as the one a repetition applies to. */
const FLAGS_ONLY = /\(\?[a-zA-Z-]*\)/y;

interface Level {
  /** Size of the finished alternatives of this group, each `|` included. */
  alts: number;
  /** Size of the finished parts of the current alternative. */
  done: number;
  /** Size of the last atom: what a following repetition applies to. */
  last: number;
}

/** Index just past a flags-only group such as `(?i)` that starts at `start`, if it is one. */
function flagsOnlyEnd(source: string, start: number): number | undefined {
  FLAGS_ONLY.lastIndex = start;
  return FLAGS_ONLY.test(source) ? FLAGS_ONLY.lastIndex : undefined;
}

/** Size of a group's content so far; like RE2, an empty part still costs one. */
function sizeOf(level: Level): number {
  return level.alts + Math.max(1, level.done + level.last);
}

/** Index just past the `]` closing the character class that opens at `start`. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a leading ] is a literal
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '\\') i += 2;
    else if (source.startsWith('[:', i)) {
      const close = source.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else i++;
  }
  return i + 1;
}

/** Index just past the escape that starts at `start` (`\Q...\E` counts its characters separately). */
function escapeEnd(source: string, start: number): number {
  const next = source[start + 1];
  if ((next === 'p' || next === 'P' || next === 'x') && source[start + 2] === '{') {
    const close = source.indexOf('}', start + 3);
    return close < 0 ? source.length : close + 1;
  }
  return start + 2;
}

/**
 * An estimate, from the source alone, of the RE2 instructions a regex
 * compiles to, following RE2's own size rules (Go regexp/syntax calcSize):
 * each literal character, class or escape is one, a group adds two, `*` two,
 * `+` and `?` one, `|` one, and `x{n,m}` costs m copies of x, plus the
 * program's fail and match instructions. It errs high (every group counts
 * as capturing, no alternation is folded into a class) and exists so that
 * a regex whose counted repetitions multiply into a huge program is refused
 * before re2js spends time and memory expanding it.
 */
export function estimateRegexProgramSize(source: string): number {
  const stack: Level[] = [];
  let cur: Level = { alts: 0, done: 0, last: 0 };
  const atom = (size: number) => {
    cur.done += cur.last;
    cur.last = size;
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\' && source[i + 1] === 'Q') {
      const close = source.indexOf('\\E', i + 2);
      const end = close < 0 ? source.length : close;
      for (let j = i + 2; j < end; j++) atom(1);
      i = close < 0 ? end : close + 2;
    } else if (c === '\\') {
      atom(1);
      i = escapeEnd(source, i);
    } else if (c === '[') {
      atom(1);
      i = classEnd(source, i);
    } else if (c === '(' && flagsOnlyEnd(source, i) !== undefined) {
      i = flagsOnlyEnd(source, i) as number;
    } else if (c === '(') {
      stack.push(cur);
      cur = { alts: 0, done: 0, last: 0 };
      i++;
    } else if (c === ')') {
      const inner = sizeOf(cur) + 2;
      cur = stack.pop() ?? { alts: 0, done: 0, last: 0 };
      atom(inner);
      i++;
    } else if (c === '|') {
      cur.alts += sizeOf(cur) + 1;
      cur.done = 0;
      cur.last = 0;
      i++;
    } else if (c === '*') {
      cur.last += 2;
      i++;
    } else if (c === '+' || c === '?') {
      cur.last += 1;
      i++;
    } else if (c === '{') {
      COUNTED_REPEAT.lastIndex = i;
      const m = COUNTED_REPEAT.exec(source);
      if (m === null) {
        atom(1);
        i++;
      } else {
        const min = Number(m[1]);
        const sub = Math.max(1, cur.last);
        if (m[2] !== undefined && m[3] === '') cur.last = min === 0 ? 2 + sub : 1 + min * sub; // x{n,}
        else {
          const max = m[2] === undefined ? min : Number(m[3]);
          cur.last = Math.max(1, max * sub + Math.max(0, max - min));
        }
        i = COUNTED_REPEAT.lastIndex;
      }
    } else {
      atom(1);
      i++;
    }
  }
  while (stack.length > 0) {
    const inner = sizeOf(cur) + 2;
    cur = stack.pop() as Level;
    atom(inner);
  }
  return sizeOf(cur) + 2; // the program's own fail and match instructions
}
