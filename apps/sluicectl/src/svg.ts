// The circuit as an SVG picture: components as boxes and signals as labelled arrows, laid out left to
// right by dagre (ranks follow the signals' flow, crossings kept few). A signal nobody writes, or one
// the compiler found a problem on, is a dashed red arrow from a red "no writer" tag; an output
// nobody reads is a dashed grey arrow to a grey "unread" tag; the problems are listed under the graph.
import dagre from '@dagrejs/dagre';
import type { CircuitPicture } from './graph.js';

const FONT = 13;
const CHAR_W = 7.4; // Helvetica at 13 px, about
const PAD_X = 14;
const LINE_H = 17;
const RED = '#c62828';
const GREY = '#8a8a8a';
const INK = '#263238';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** The width of a line of text, about: capitals and digits are wider than lower-case letters. */
const textWidth = (l: string): number => [...l].reduce((w, c) => w + (/[A-Z0-9_]/.test(c) ? CHAR_W * 1.25 : CHAR_W), 0);
const width = (lines: string[]): number => Math.max(...lines.map(textWidth)) + 2 * PAD_X;

interface Box { id: string; lines: string[]; kind: 'component' | 'no-writer' | 'unread' }
interface Arrow { from: string; to: string; signal: string; marked?: 'problem' | 'unread'; problem?: string }

/** The boxes and arrows of a circuit: components, and a tag at each loose end of a dangling signal. */
function shapes(p: CircuitPicture): { boxes: Box[]; arrows: Arrow[] } {
  const boxes: Box[] = p.nodes.map((n) => ({ id: n.id, lines: [n.id, n.kind], kind: 'component' }));
  const arrows: Arrow[] = [];
  p.edges.forEach((e, i) => {
    const unread = e.to === undefined && e.problem === undefined;
    const marked = e.problem !== undefined || e.from === undefined || e.to === undefined ? (unread ? 'unread' : 'problem') : undefined;
    let from = e.from;
    let to = e.to;
    if (from === undefined) {
      from = `loose-${i}`;
      boxes.push({ id: from, lines: [e.signal, 'no writer'], kind: 'no-writer' });
    }
    if (to === undefined) {
      to = `loose-${i}`;
      boxes.push({ id: to, lines: [e.signal, unread ? 'unread' : 'not read'], kind: unread ? 'unread' : 'no-writer' });
    }
    arrows.push({ from, to, signal: e.signal, ...(marked !== undefined ? { marked } : {}), ...(e.problem !== undefined ? { problem: e.problem } : {}) });
  });
  return { boxes, arrows };
}

/** A smooth path through dagre's points (a Catmull-Rom spline drawn as cubic Béziers). */
function pathOf(points: Array<{ x: number; y: number }>): string {
  if (points.length === 0) return '';
  const f = (n: number): string => n.toFixed(1);
  let d = `M${f(points[0]?.x ?? 0)},${f(points[0]?.y ?? 0)}`;
  for (let i = 0; i < points.length - 1; i++) {
    const p0 = points[Math.max(0, i - 1)] ?? points[i];
    const p1 = points[i];
    const p2 = points[i + 1];
    const p3 = points[Math.min(points.length - 1, i + 2)] ?? p2;
    if (p0 === undefined || p1 === undefined || p2 === undefined || p3 === undefined) continue;
    d += ` C${f(p1.x + (p2.x - p0.x) / 6)},${f(p1.y + (p2.y - p0.y) / 6)} ${f(p2.x - (p3.x - p1.x) / 6)},${f(p2.y - (p3.y - p1.y) / 6)} ${f(p2.x)},${f(p2.y)}`;
  }
  return d;
}

/** The circuit of `name` as a standalone SVG document. */
export function toSvg(name: string, p: CircuitPicture): string {
  const { boxes, arrows } = shapes(p);
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'LR', nodesep: 28, ranksep: 70, edgesep: 16, marginx: 20, marginy: 20 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const b of boxes) g.setNode(b.id, { width: width(b.lines), height: b.lines.length * LINE_H + 14 });
  arrows.forEach((a, i) => {
    g.setEdge(a.from, a.to, { width: textWidth(a.signal) * 0.92 + 8, height: LINE_H, labelpos: 'c', minlen: 1 }, `e${i}`);
  });
  dagre.layout(g);
  const graph = g.graph() as { width?: number; height?: number };
  const finite = (n: number | undefined): number => (n !== undefined && Number.isFinite(n) ? n : 0);
  const gw = Math.max(finite(graph.width), 320);
  const problems = p.problems.map((x) => `${x.path}: ${x.message}`);
  const title = `policy ${name}: ${p.nodes.length} component${p.nodes.length === 1 ? '' : 's'}, ${arrows.length} signal${arrows.length === 1 ? '' : 's'}${problems.length > 0 ? `, ${problems.length} problem${problems.length === 1 ? '' : 's'}` : ''}`;
  const top = 34;
  const gh = finite(graph.height);
  const footer = problems.length > 0 ? 16 + problems.length * LINE_H : 0;
  const legendY = top + gh + footer + 8;
  const totalW = Math.max(gw, width([title]), ...problems.map((l) => l.length * CHAR_W * 0.95 + 40), 560);
  const totalH = legendY + 30;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.ceil(totalW)}" height="${Math.ceil(totalH)}" viewBox="0 0 ${Math.ceil(totalW)} ${Math.ceil(totalH)}" font-family="Helvetica, Arial, sans-serif" font-size="${FONT}">`,
    `<title>${esc(title)}</title>`,
    '<defs>',
    `<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${INK}"/></marker>`,
    `<marker id="arrow-problem" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${RED}"/></marker>`,
    `<marker id="arrow-unread" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${GREY}"/></marker>`,
    '</defs>',
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="20" y="22" font-size="15" font-weight="bold" fill="${INK}">${esc(title)}</text>`,
    `<g transform="translate(0,${top})">`,
  ];
  arrows.forEach((a, i) => {
    const e = g.edge({ v: a.from, w: a.to, name: `e${i}` }) as { points?: Array<{ x: number; y: number }>; x?: number; y?: number };
    const color = a.marked === 'problem' ? RED : a.marked === 'unread' ? GREY : INK;
    const cls = a.marked === undefined ? 'signal' : `signal ${a.marked}`;
    const dash = a.marked !== undefined ? ' stroke-dasharray="6 4"' : '';
    const marker = a.marked === 'problem' ? 'arrow-problem' : a.marked === 'unread' ? 'arrow-unread' : 'arrow';
    out.push(`<g class="${cls}" data-signal="${esc(a.signal)}">${a.problem !== undefined ? `<title>${esc(a.problem)}</title>` : ''}`);
    out.push(`<path d="${pathOf(e.points ?? [])}" fill="none" stroke="${color}" stroke-width="1.6"${dash} marker-end="url(#${marker})"/>`);
    if (e.x !== undefined && e.y !== undefined) {
      const w = textWidth(a.signal) * 0.92 + 8;
      out.push(`<rect x="${(e.x - w / 2).toFixed(1)}" y="${(e.y - LINE_H / 2).toFixed(1)}" width="${w.toFixed(1)}" height="${LINE_H}" rx="3" fill="#ffffff" fill-opacity="0.9"/>`);
      out.push(`<text x="${e.x.toFixed(1)}" y="${(e.y + 4).toFixed(1)}" text-anchor="middle" font-size="12" fill="${color}">${esc(a.signal)}</text>`);
    }
    out.push('</g>');
  });
  for (const b of boxes) {
    const n = g.node(b.id) as { x: number; y: number; width: number; height: number };
    const x = n.x - n.width / 2;
    const y = n.y - n.height / 2;
    if (b.kind === 'component') {
      out.push(`<g class="component" data-id="${esc(b.id)}">`);
      out.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${n.width.toFixed(1)}" height="${n.height.toFixed(1)}" rx="6" fill="#e3f2fd" stroke="#1565c0" stroke-width="1.4"/>`);
      out.push(`<text x="${n.x.toFixed(1)}" y="${(y + 19).toFixed(1)}" text-anchor="middle" font-weight="bold" fill="${INK}">${esc(b.lines[0] ?? '')}</text>`);
      out.push(`<text x="${n.x.toFixed(1)}" y="${(y + 19 + LINE_H).toFixed(1)}" text-anchor="middle" fill="#455a64">${esc(b.lines[1] ?? '')}</text>`);
    } else {
      const color = b.kind === 'unread' ? GREY : RED;
      out.push(`<g class="loose ${b.kind}">`);
      out.push(`<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${n.width.toFixed(1)}" height="${n.height.toFixed(1)}" rx="${(n.height / 2).toFixed(1)}" fill="#ffffff" stroke="${color}" stroke-width="1.4" stroke-dasharray="6 4"/>`);
      out.push(`<text x="${n.x.toFixed(1)}" y="${(y + 19).toFixed(1)}" text-anchor="middle" fill="${color}">${esc(b.lines[0] ?? '')}</text>`);
      out.push(`<text x="${n.x.toFixed(1)}" y="${(y + 19 + LINE_H).toFixed(1)}" text-anchor="middle" font-style="italic" fill="${color}">${esc(b.lines[1] ?? '')}</text>`);
    }
    out.push('</g>');
  }
  out.push('</g>');
  if (problems.length > 0) {
    out.push(`<g class="problems" transform="translate(20,${top + gh + 8})">`);
    problems.forEach((l, i) => out.push(`<text y="${(i + 1) * LINE_H}" fill="${RED}">⚠ ${esc(l)}</text>`));
    out.push('</g>');
  }
  out.push(`<g class="legend" transform="translate(20,${legendY})" font-size="11" fill="#546e7a">`,
    `<line x1="0" y1="8" x2="28" y2="8" stroke="${INK}" stroke-width="1.6" marker-end="url(#arrow)"/><text x="34" y="12">signal</text>`,
    `<line x1="90" y1="8" x2="118" y2="8" stroke="${RED}" stroke-width="1.6" stroke-dasharray="6 4" marker-end="url(#arrow-problem)"/><text x="124" y="12">no writer, or a problem</text>`,
    `<line x1="270" y1="8" x2="298" y2="8" stroke="${GREY}" stroke-width="1.6" stroke-dasharray="6 4" marker-end="url(#arrow-unread)"/><text x="304" y="12">output nobody reads</text>`,
    '</g>', '</svg>');
  return `${out.join('\n')}\n`;
}
