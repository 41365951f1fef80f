/**
 * Response shapes of the public market-data routes, as they travel on the wire: the protocol
 * package's static types, under the names the SDK has always used.
 */
export type {
  BookCandle,
  BookCandles,
  BookStatus,
  BooksPage,
  DepthLevel,
  DepthSnapshot,
  ExactInputQuote,
  ExactOutputQuote,
  Flag,
  Health,
  OrderbookItem,
  RecentTrades,
  SettlementEvent,
  SettlementProof,
  SignatureDomain,
  Trade,
  TradeDirection,
} from '@dex/protocol';
