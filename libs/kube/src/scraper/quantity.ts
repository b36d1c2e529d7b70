// Kubernetes resource quantities ("100m", "0.5", "128Mi", "1G", "1e3") as numbers: CPU in cores,
// memory in bytes. Undefined for what is not a quantity.
const SUFFIX: Readonly<Record<string, number>> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE])?)$/;

export function parseQuantity(q: unknown): number | undefined {
  if (typeof q === 'number') return Number.isFinite(q) ? q : undefined;
  if (typeof q !== 'string') return undefined;
  const m = QUANTITY.exec(q.trim());
  if (m === null) return undefined;
  const base = Number(m[1]);
  if (m[2] !== undefined) return Number(`${m[1]}${m[2]}`);
  return base * SUFFIX[m[3] ?? ''];
}
