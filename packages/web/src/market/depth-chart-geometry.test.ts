import { describe, expect, it } from 'vitest';
import { depthChartGeometry } from './depth-chart-geometry.js';

const SIZE = { width: 100, height: 50 };

describe('depthChartGeometry', () => {
  it('spans the lowest bid to the highest ask, on the deeper side total', () => {
    const shape = depthChartGeometry(
      {
        bids: [
          ['9', '1'],
          ['8', '1'],
        ],
        asks: [
          ['11', '3'],
          ['12', '1'],
        ],
      },
      SIZE,
      10,
    );
    expect(shape?.lowPrice).toBe('8');
    expect(shape?.highPrice).toBe('12');
    expect(shape?.maxTotal).toBe('4');
    // Prices 8..12 span x 5..95. Bids: from 9 (x 27.5) up to 1/4 of the height, across to 8 (x 5),
    // up to 2/4, on to the left edge and down to the floor.
    expect(shape?.bidArea).toBe('M27.5,50L27.5,50L27.5,37.5L5,37.5L5,25L0,25L0,50Z');
    expect(shape?.askArea).toBe('M72.5,50L72.5,50L72.5,12.5L95,12.5L95,0L100,0L100,50Z');
  });

  it('draws only the levels asked for', () => {
    const shape = depthChartGeometry(
      {
        bids: [
          ['9', '1'],
          ['1', '100'],
        ],
        asks: [],
      },
      SIZE,
      1,
    );
    expect(shape?.lowPrice).toBe('9');
    expect(shape?.maxTotal).toBe('1');
  });

  it('draws one side alone, a one-price book in the middle', () => {
    const shape = depthChartGeometry({ bids: [['5', '2']], asks: [] }, SIZE, 10);
    expect(shape?.askArea).toBe('');
    expect(shape?.bidArea).toBe('M50,50L50,50L50,0L0,0L0,50Z');
  });

  it('has nothing to draw for an empty book', () => {
    expect(depthChartGeometry({ bids: [], asks: [] }, SIZE, 10)).toBeUndefined();
  });
});
