// The CPU a process used within a window of its life, from samples of its running total.

/** CPU seconds at time `ms`, linear between the samples around it (the nearest one outside them). */
export function cpuAtTime(points: ReadonlyArray<readonly [number, number]>, ms: number): number {
  if (points.length === 0) return 0;
  const after = points.findIndex(([t]) => t >= ms);
  if (after === 0) return points[0]![1];
  if (after === -1) return points[points.length - 1]![1];
  const [t0, c0] = points[after - 1]!;
  const [t1, c1] = points[after]!;
  return t1 === t0 ? c1 : c0 + ((c1 - c0) * (ms - t0)) / (t1 - t0);
}
