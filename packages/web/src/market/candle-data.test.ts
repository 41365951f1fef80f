import { describe, expect, it } from 'vitest';
import { chartBars } from './candle-data.js';

const candle = (start: number, open: string, close: string, baseVolume = '100') => ({
  startTimestampSeconds: start,
  open,
  high: '0.3',
  low: '0.2',
  close,
  baseVolume,
  quoteVolume: '25',
  tradeCount: 2,
});

describe('chart bars', () => {
  it('keeps the time axis in the route’s unix seconds, oldest first', () => {
    const { bars } = chartBars([candle(3_600, '0.25', '0.26'), candle(7_200, '0.26', '0.24')]);
    expect(bars.map((bar) => bar.time)).toEqual([3_600, 7_200]);
    expect(bars[0]).toEqual({ time: 3_600, open: 0.25, high: 0.3, low: 0.2, close: 0.26 });
  });

  it('colours a volume bar by whether its bucket closed at or above its open', () => {
    const { volumes } = chartBars([candle(0, '0.25', '0.25'), candle(300, '0.25', '0.249', '7')]);
    expect(volumes).toEqual([
      { time: 0, value: 100, up: true },
      { time: 300, value: 7, up: false },
    ]);
  });

  it('draws nothing for a book that never traded', () => {
    expect(chartBars([])).toEqual({ bars: [], volumes: [] });
  });
});
