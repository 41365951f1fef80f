/**
 * The figures the service reports for monitoring (`GET /metrics` on METRICS_PORT), as small named
 * instruments so that the application and the adapters never import a metrics library. Labels are
 * few and bounded: outcomes, error codes, stream kinds, route patterns and book ids (operators
 * create books, so there are few). Never an account, an order or a key.
 */
export interface Metrics {
  /**
   * Orders of a `POST /orders/save` batch: `accepted` (new), `replayed` (saved before, or repeated
   * in the batch), or the error code that refused the batch.
   */
  orderIntake(outcome: string, orders: number): void;
  /** Time the matching engine took for one command batch of a book. */
  matchLatency(seconds: number): void;
  /** Trades stored on a book; `venue` says whether the maker was a resting order or the book's pool. */
  fills(bookId: number, venue: 'book' | 'pool', trades: number): void;
  /** A settlement batch's outcome (`mined`, `reverted`, `lost`, `halved`) and the fills it carried. */
  settlementBatch(outcome: SettlementBatchOutcome, fills: number): void;
  /** A fill the reactor refused (in the simulation or on chain), by the reactor's reason. */
  fillReverted(reason: string): void;
  /** Time from a trade's match to its settlement being recorded. */
  settlementLag(seconds: number): void;
  /** Blocks between the chain's head and the reactor indexer's cursor, as of its latest read. */
  indexerLag(blocks: number): void;
  /** A WebSocket stream opened (+1) or closed (-1). */
  streamConnections(stream: string, delta: 1 | -1): void;
  /** Messages sent on a stream: one call for all the connections a change went to. */
  streamMessagesSent(stream: string, messages: number): void;
  /** A stream cut off because its client stopped reading. */
  slowConsumerDropped(stream: string): void;
  /** A data API answer, by route pattern (`unmatched` for unknown paths) and status code. */
  dataApiRequest(route: string, status: number): void;
  /** A data API request refused because its key's monthly quota is used up. */
  dataApiQuotaRefused(): void;
  /** Time one commit group took to store, and the turns it held. */
  storeCommit(seconds: number, turns: number): void;
  /** Time one stage of a `POST /orders/save` batch took (where a save's time goes). */
  saveStage(stage: SaveStage, seconds: number): void;
  /** Time one desk turn waited for the turns before it, ran, then waited for its commit group to be stored. */
  deskTurn(seconds: { readonly waited: number; readonly ran: number; readonly stored: number }): void;
}

/**
 * The stages of a save, in order: `check` (parse and check each item), `deduplicate` (orders saved
 * before), `verify` (signatures), `funds` (holdings on the chain), `desk` (the turn and its commit).
 */
export type SaveStage = 'check' | 'deduplicate' | 'verify' | 'funds' | 'desk';

export type SettlementBatchOutcome = 'mined' | 'reverted' | 'lost' | 'halved';

/** Metrics that record nothing: the default of components built without them (tests, tools). */
export const noMetrics: Metrics = {
  orderIntake: () => {},
  matchLatency: () => {},
  fills: () => {},
  settlementBatch: () => {},
  fillReverted: () => {},
  settlementLag: () => {},
  indexerLag: () => {},
  streamConnections: () => {},
  streamMessagesSent: () => {},
  slowConsumerDropped: () => {},
  dataApiRequest: () => {},
  dataApiQuotaRefused: () => {},
  storeCommit: () => {},
  saveStage: () => {},
  deskTurn: () => {},
};

/** The recorded figures in a scraper's text format (Prometheus), for the metrics listener. */
export interface MetricsExposition {
  readonly contentType: string;
  text(): Promise<string>;
}
