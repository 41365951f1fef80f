/**
 * Ordinary least squares without an intercept: the coefficients `b` that minimise
 * `sum((y - X b)^2)`, from the normal equations by Gaussian elimination with partial pivoting.
 * bench:settlement uses it to share each settlement transaction's gas among what it carried (book
 * fills, pool fills, Ed25519 signatures checked for the first time).
 */

/** `rows[i]` are the regressors of observation i, `y[i]` its value; undefined when they do not determine the coefficients. */
export function leastSquares(rows: readonly (readonly number[])[], y: readonly number[]): number[] | undefined {
  const width = rows[0]?.length ?? 0;
  if (width === 0 || rows.length !== y.length || rows.length < width) return undefined;
  if (rows.some((row) => row.length !== width)) throw new RangeError('rows of different widths');
  // The augmented normal equations [X'X | X'y].
  const system = Array.from({ length: width }, (_, i) => {
    const line = Array.from({ length: width + 1 }, () => 0);
    rows.forEach((row, k) => {
      const xi = row[i] as number;
      for (let j = 0; j < width; j++) line[j] = (line[j] as number) + xi * (row[j] as number);
      line[width] = (line[width] as number) + xi * (y[k] as number);
    });
    return line;
  });
  const scale = Math.max(...system.map((line) => Math.max(...line.slice(0, width).map(Math.abs))));
  for (let col = 0; col < width; col++) {
    let pivot = col;
    for (let r = col + 1; r < width; r++) {
      if (Math.abs(system[r]?.[col] as number) > Math.abs(system[pivot]?.[col] as number)) pivot = r;
    }
    const head = system[pivot] as number[];
    if (!(Math.abs(head[col] as number) > scale * 1e-12)) return undefined;
    system[pivot] = system[col] as number[];
    system[col] = head;
    for (let r = 0; r < width; r++) {
      const line = system[r] as number[];
      if (r === col) continue;
      const factor = (line[col] as number) / (head[col] as number);
      for (let j = col; j <= width; j++) line[j] = (line[j] as number) - factor * (head[j] as number);
    }
  }
  return system.map((line, i) => (line[width] as number) / (line[i] as number));
}
