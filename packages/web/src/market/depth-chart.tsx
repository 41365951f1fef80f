import type { DepthSnapshot } from '@dex/sdk';
import { useMemo } from 'preact/hooks';
import { depthChartGeometry } from './depth-chart-geometry.js';

/** The drawing's own units; the SVG scales to its box. */
const SIZE = { width: 600, height: 220 } as const;
/** Levels drawn per side: enough to see the book's shape near the price, not its far tails. */
const CHART_LEVELS = 60;

interface DepthChartProps {
  readonly depth: DepthSnapshot;
  readonly baseLabel: string;
  readonly quoteLabel: string;
}

/** Cumulative bids (left, falling away from the price) and asks (right), as an inline SVG. */
export function DepthChart({ depth, baseLabel, quoteLabel }: DepthChartProps) {
  const shape = useMemo(() => depthChartGeometry(depth, SIZE, CHART_LEVELS), [depth]);
  if (shape === undefined) return <p class="empty">The book is empty: nothing to chart.</p>;
  return (
    <figure class="depth-chart" data-testid="depth-chart">
      <svg
        viewBox={`0 0 ${SIZE.width} ${SIZE.height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={`Cumulative depth from ${shape.lowPrice} to ${shape.highPrice} ${quoteLabel}, up to ${shape.maxTotal} ${baseLabel}`}
      >
        <path class="depth-bids" d={shape.bidArea} />
        <path class="depth-asks" d={shape.askArea} />
      </svg>
      <figcaption class="depth-axis">
        <span class="num">{shape.lowPrice}</span>
        <span>
          up to <span class="num">{shape.maxTotal}</span> {baseLabel}
        </span>
        <span class="num">{shape.highPrice}</span>
      </figcaption>
    </figure>
  );
}
