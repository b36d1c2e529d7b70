// The what-if picture: rejections over time per label value, as a line chart in plain SVG.

/** The timeline of a what-if answer (POST /v1/whatif). */
export interface WhatIfTimeline {
  start_unix_ms: number;
  bucket_ms: number;
  series: { value: string; flows: number[]; rejected: number[] }[];
}

const WIDTH = 720;
const HEIGHT = 360;
const LEFT = 56;
const RIGHT = 180;
const TOP = 40;
const BOTTOM = 48;
const COLORS = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
/** Series drawn at most (those with the most rejections). */
export const SVG_MAX_SERIES = 10;

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** A line per label value (rejected flows per time bucket), axes in seconds from the first sample, a legend with totals. */
export function whatIfSvg(timeline: WhatIfTimeline, title: string): string {
  const series = [...timeline.series].sort((a, b) => sum(b.rejected) - sum(a.rejected) || a.value.localeCompare(b.value)).slice(0, SVG_MAX_SERIES);
  const buckets = Math.max(1, ...series.map((s) => s.rejected.length));
  const maxY = Math.max(1, ...series.flatMap((s) => s.rejected));
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (i: number): number => LEFT + (buckets === 1 ? plotW / 2 : (i / (buckets - 1)) * plotW);
  const y = (v: number): number => TOP + plotH - (v / maxY) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${LEFT}" y="22" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<line x1="${LEFT}" y1="${TOP + plotH}" x2="${LEFT + plotW}" y2="${TOP + plotH}" stroke="black"/>`,
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plotH}" stroke="black"/>`,
    `<text x="${LEFT - 6}" y="${TOP + 4}" text-anchor="end">${maxY}</text>`,
    `<text x="${LEFT - 6}" y="${TOP + plotH + 4}" text-anchor="end">0</text>`,
    `<text x="14" y="${TOP + plotH / 2}" transform="rotate(-90 14 ${TOP + plotH / 2})" text-anchor="middle">rejected per ${(timeline.bucket_ms / 1000).toFixed(2)} s</text>`,
    `<text x="${LEFT}" y="${TOP + plotH + 18}" text-anchor="middle">0 s</text>`,
    `<text x="${LEFT + plotW}" y="${TOP + plotH + 18}" text-anchor="middle">${((buckets * timeline.bucket_ms) / 1000).toFixed(1)} s</text>`,
    `<text x="${LEFT + plotW / 2}" y="${HEIGHT - 12}" text-anchor="middle">time since the first sample</text>`,
  ];
  series.forEach((s, k) => {
    const color = COLORS[k % COLORS.length] ?? 'black';
    const points = s.rejected.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline class="series" data-value="${esc(s.value)}" fill="none" stroke="${color}" stroke-width="2" points="${points}"/>`);
    const ly = TOP + 10 + k * 18;
    parts.push(`<rect x="${LEFT + plotW + 14}" y="${ly - 9}" width="12" height="12" fill="${color}"/>`);
    parts.push(`<text x="${LEFT + plotW + 32}" y="${ly + 1}">${esc(s.value.length > 16 ? `${s.value.slice(0, 15)}…` : s.value)}: ${sum(s.rejected)}/${sum(s.flows)}</text>`);
  });
  if (series.length === 0) parts.push(`<text x="${LEFT + plotW / 2}" y="${TOP + plotH / 2}" text-anchor="middle">no samples</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
