import type { DepthLevel } from '@dex/sdk';
import { compareDecimals, fractionOf, toPixelNumber } from '../decimal.js';
import { type CumulativeLevel, cumulativeLevels, sideTotal } from './ladder.js';

export interface ChartSize {
  readonly width: number;
  readonly height: number;
}

export interface DepthChartGeometry {
  /** SVG path data of the cumulative bid curve (a staircase falling to the right), closed to the floor. */
  readonly bidArea: string;
  readonly askArea: string;
  /** Texts for the axes, exact: the lowest and highest prices drawn and the larger side total. */
  readonly lowPrice: string;
  readonly highPrice: string;
  readonly maxTotal: string;
}

/** Pixel coordinates may be floats; two decimals keep the path text short. */
const px = (value: number) => Number(value.toFixed(2));

/** Share of the width left free at each end, so the outermost level's step can be seen. */
const EDGE_MARGIN = 0.05;

/**
 * A staircase from the best price outward: up at each level by its size, across to the next price,
 * on to the chart's edge, then down to the floor, so it can be filled.
 */
function stairArea(
  levels: readonly CumulativeLevel[],
  x: (price: string) => number,
  y: (total: string) => number,
  floor: number,
  edge: number,
): string {
  const first = levels[0];
  if (first === undefined) return '';
  let path = `M${px(x(first.price))},${floor}`;
  let previousY = floor;
  for (const level of levels) {
    const levelX = px(x(level.price));
    const levelY = px(y(level.cumulative));
    path += `L${levelX},${previousY}L${levelX},${levelY}`;
    previousY = levelY;
  }
  return `${path}L${edge},${previousY}L${edge},${floor}Z`;
}

/**
 * The depth chart's shapes for the first `maxLevels` levels of each side: prices across (lowest bid
 * to highest ask), cumulative size up, both sides on one vertical scale. Undefined for an empty book.
 */
export function depthChartGeometry(
  depth: { readonly bids: readonly DepthLevel[]; readonly asks: readonly DepthLevel[] },
  size: ChartSize,
  maxLevels: number,
): DepthChartGeometry | undefined {
  const bids = cumulativeLevels(depth.bids.slice(0, maxLevels));
  const asks = cumulativeLevels(depth.asks.slice(0, maxLevels));
  const lowPrice = (bids.at(-1) ?? asks[0])?.price;
  const highPrice = (asks.at(-1) ?? bids[0])?.price;
  if (lowPrice === undefined || highPrice === undefined) return undefined;
  const bidTotal = sideTotal(bids);
  const askTotal = sideTotal(asks);
  const maxTotal = compareDecimals(bidTotal, askTotal) >= 0 ? bidTotal : askTotal;
  const low = toPixelNumber(lowPrice);
  const range = toPixelNumber(highPrice) - low;
  const margin = size.width * EDGE_MARGIN;
  const inner = size.width - 2 * margin;
  // One price only (a one-level book): put it in the middle rather than divide by zero.
  const x = (price: string) => (range > 0 ? margin + ((toPixelNumber(price) - low) / range) * inner : size.width / 2);
  const y = (total: string) => size.height - fractionOf(total, maxTotal) * size.height;
  return {
    bidArea: stairArea(bids, x, y, size.height, 0),
    askArea: stairArea(asks, x, y, size.height, size.width),
    lowPrice,
    highPrice,
    maxTotal,
  };
}
