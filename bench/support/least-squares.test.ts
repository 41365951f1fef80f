import { describe, expect, it } from 'vitest';
import { leastSquares } from './least-squares.js';

describe('leastSquares', () => {
  it('recovers exact coefficients', () => {
    const truth = [105_000, 160_000, 290_000];
    const rows = [
      [100, 0, 10],
      [60, 40, 8],
      [50, 50, 3],
      [90, 0, 12],
      [30, 60, 0],
    ];
    const y = rows.map((row) => row.reduce((sum, x, i) => sum + x * (truth[i] as number), 0));
    const fit = leastSquares(rows, y);
    expect(fit).toHaveLength(3);
    fit?.forEach((value, i) => {
      expect(value).toBeCloseTo(truth[i] as number, 6);
    });
  });

  it('fits noisy data in the least-squares sense', () => {
    // y = 2x with noise +1, -1: the slope stays 2.
    expect(leastSquares([[1], [1], [2], [2]], [3, 1, 5, 3])?.[0]).toBeCloseTo(2, 12);
  });

  it('answers undefined when the regressors do not determine the coefficients', () => {
    expect(
      leastSquares(
        [
          [1, 2],
          [2, 4],
          [3, 6],
        ],
        [1, 2, 3],
      ),
    ).toBeUndefined();
    expect(leastSquares([[1, 0]], [1])).toBeUndefined();
    expect(leastSquares([], [])).toBeUndefined();
  });
});
