import type { DepthSnapshot } from '@dex/sdk';
import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { buildLadder, type LadderRow, type LadderSide, type Spread } from './ladder.js';

interface DepthLadderProps {
  readonly depth: DepthSnapshot;
  readonly baseLabel: string;
  readonly quoteLabel: string;
}

/** Bar width as a CSS variable; the stylesheet draws the bar from it. */
const barStyle = (fraction: number) => `--depth:${(fraction * 100).toFixed(2)}%`;

function Row({ row }: { readonly row: LadderRow }) {
  return (
    <tr
      class={`ladder-row ladder-${row.side}`}
      data-testid="ladder-row"
      data-side={row.side}
      data-price={row.price}
      data-size={row.size}
      style={barStyle(row.depthFraction)}
    >
      <td class="num price">{row.price}</td>
      <td class="num">{row.size}</td>
      <td class="num cumulative">{row.cumulative}</td>
    </tr>
  );
}

function SideRows({ rows, side }: { readonly rows: readonly LadderRow[]; readonly side: LadderSide }) {
  return (
    <tbody class={`ladder-side-${side}`} aria-label={side === 'ask' ? 'Asks' : 'Bids'}>
      {rows.length === 0 ? (
        <tr class="ladder-empty">
          <td colSpan={3}>{side === 'ask' ? 'No asks' : 'No bids'}</td>
        </tr>
      ) : (
        rows.map((row) => <Row key={row.price} row={row} />)
      )}
    </tbody>
  );
}

function SpreadRow({ spread, quoteLabel }: { readonly spread: Spread | undefined; readonly quoteLabel: string }) {
  return (
    <tbody>
      <tr class="ladder-spread" data-testid="spread">
        <td colSpan={3}>
          {spread === undefined ? (
            'No spread: a side of the book is empty'
          ) : (
            <>
              Spread <span class="num">{spread.absolute}</span> {quoteLabel}
              {spread.percent === null ? null : <span class="num"> ({spread.percent}%)</span>}
            </>
          )}
        </td>
      </tr>
    </tbody>
  );
}

/**
 * Asks above, bids below, best prices meeting at the spread; every level of the snapshot, with
 * prices and sizes exactly as the API sent them. The first snapshot scrolls the spread into the
 * middle; after that the browser's scroll anchoring keeps it in place as levels come and go.
 */
export function DepthLadder({ depth, baseLabel, quoteLabel }: DepthLadderProps) {
  const ladder = useMemo(() => buildLadder(depth), [depth]);
  const scroller = useRef<HTMLDivElement>(null);
  // Once, on the first snapshot: the market page mounts a new ladder for each book.
  useLayoutEffect(() => {
    const box = scroller.current;
    const spread = box?.querySelector('.ladder-spread');
    if (box === null || box === undefined || spread === null || spread === undefined) return;
    const boxTop = box.getBoundingClientRect().top;
    const { top, height } = spread.getBoundingClientRect();
    box.scrollTop += top - boxTop - (box.clientHeight - height) / 2;
  }, []);
  return (
    <div class="ladder-scroll" ref={scroller}>
      <table class="ladder" data-testid="ladder" data-update-id={depth.lastUpdateId} aria-label="Order book depth">
        <thead>
          <tr>
            <th scope="col" class="num">
              Price <span class="unit">{quoteLabel}</span>
            </th>
            <th scope="col" class="num">
              Size <span class="unit">{baseLabel}</span>
            </th>
            <th scope="col" class="num">
              Total <span class="unit">{baseLabel}</span>
            </th>
          </tr>
        </thead>
        <SideRows rows={ladder.asks} side="ask" />
        <SpreadRow spread={ladder.spread} quoteLabel={quoteLabel} />
        <SideRows rows={ladder.bids} side="bid" />
      </table>
    </div>
  );
}
