/** The gradient of a gradient controller: `(signal / setpoint) ^ slope`, clamped; undefined when it is not a number. */
export function gradientOf(signal: number, setpoint: number, slope: number, minGradient: number, maxGradient: number): number | undefined {
  if (setpoint === 0) return undefined;
  const g = Math.pow(signal / setpoint, slope);
  if (Number.isNaN(g)) return undefined;
  return Math.min(maxGradient, Math.max(minGradient, g));
}
