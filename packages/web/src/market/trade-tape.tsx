import type { RecentTrades, Trade } from '@dex/sdk';

interface TradeTapeProps {
  readonly trades: RecentTrades;
  readonly baseLabel: string;
  readonly quoteLabel: string;
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });

function TradeRow({ trade }: { readonly trade: Trade }) {
  const at = new Date(trade.timestamp);
  return (
    <tr
      class={`trade trade-${trade.direction}`}
      data-testid="trade"
      data-trade-id={trade.tradeId}
      data-price={trade.price}
      data-size={trade.amountBase}
      data-side={trade.direction}
    >
      <td>
        <time dateTime={at.toISOString()} title={at.toISOString()}>
          {TIME.format(at)}
        </time>
      </td>
      <td class="num price">{trade.price}</td>
      <td class="num">{trade.amountBase}</td>
      <td class="side">{trade.direction === 'buy' ? 'Buy' : 'Sell'}</td>
    </tr>
  );
}

/** The latest trades of the book, newest first; the side is the taker's (the aggressor). */
export function TradeTape({ trades, baseLabel, quoteLabel }: TradeTapeProps) {
  return (
    <table class="tape" data-testid="tape" aria-label="Latest trades">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col" class="num">
            Price <span class="unit">{quoteLabel}</span>
          </th>
          <th scope="col" class="num">
            Size <span class="unit">{baseLabel}</span>
          </th>
          <th scope="col">Taker</th>
        </tr>
      </thead>
      <tbody>
        {trades.trades.length === 0 ? (
          <tr>
            <td colSpan={4} class="empty">
              No trades yet
            </td>
          </tr>
        ) : (
          trades.trades.map((trade) => <TradeRow key={trade.tradeId} trade={trade} />)
        )}
      </tbody>
    </table>
  );
}
