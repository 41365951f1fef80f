import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics, MetricsExposition, SaveStage, SettlementBatchOutcome } from '../../ports/metrics.js';

/** Seconds, from 10 µs to 1 s: one engine command batch, one commit group. */
const FAST_BUCKETS = [0.00001, 0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
/** Seconds, from 1 s to an hour: a trade's way from its match to its settlement. */
const LAG_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800, 3600];

/** A counter in `registry`. */
function counter<L extends string = never>(registry: Registry, name: string, help: string, labelNames: L[] = []): Counter<L> {
  return new Counter<L>({ name, help, labelNames, registers: [registry] });
}

/** A histogram in `registry`. */
function histogram<L extends string = never>(
  registry: Registry,
  name: string,
  help: string,
  buckets: number[],
  labelNames: L[] = [],
): Histogram<L> {
  return new Histogram<L>({ name, help, buckets, labelNames, registers: [registry] });
}

/** A gauge in `registry`. */
function gauge<L extends string = never>(registry: Registry, name: string, help: string, labelNames: L[] = []): Gauge<L> {
  return new Gauge<L>({ name, help, labelNames, registers: [registry] });
}

/**
 * The metrics port on prom-client, in a registry of its own (never the library's global one, so
 * that several services in one process, as in tests, keep their figures apart), with the
 * library's default process metrics: CPU, memory, handles, garbage collection and the event
 * loop's delay (`nodejs_eventloop_lag_*`).
 */
export class PromMetrics implements Metrics, MetricsExposition {
  readonly registry = new Registry();
  private readonly intake = counter(
    this.registry,
    'dex_order_intake_total',
    'Orders of POST /orders/save batches, by outcome: accepted, replayed, or the error code that refused the batch',
    ['outcome'],
  );
  private readonly matching = histogram(
    this.registry,
    'dex_matching_seconds',
    'Time the matching engine took for one command batch of a book',
    FAST_BUCKETS,
  );
  private readonly trades = counter(
    this.registry,
    'dex_fills_total',
    'Trades stored, by book and venue (book: a resting order was the maker; pool: the book pool was)',
    ['book', 'venue'],
  );
  private readonly batches = counter(
    this.registry,
    'dex_settlement_batches_total',
    'Settlement batches, by outcome: mined, reverted, lost (no receipt) or halved (refused by the simulation)',
    ['outcome'],
  );
  private readonly batchFills = counter(
    this.registry,
    'dex_settlement_batch_fills_total',
    'Fills carried by settlement batches, by the batch outcome',
    ['outcome'],
  );
  private readonly reverts = counter(
    this.registry,
    'dex_fill_reverts_total',
    'Fills the reactor refused (in the simulation or on chain), by its reason',
    ['reason'],
  );
  private readonly lag = histogram(
    this.registry,
    'dex_settlement_lag_seconds',
    'Time from a trade match to its settlement being recorded',
    LAG_BUCKETS,
  );
  private readonly indexer = gauge(
    this.registry,
    'dex_indexer_lag_blocks',
    'Blocks between the chain head and the reactor indexer cursor, as of its latest read',
  );
  private readonly connections = gauge(
    this.registry,
    'dex_ws_connections',
    'Open WebSocket streams, by stream (depth, user-events)',
    ['stream'],
  );
  private readonly messages = counter(
    this.registry,
    'dex_ws_messages_sent_total',
    'Messages sent on WebSocket streams, by stream',
    ['stream'],
  );
  private readonly slow = counter(
    this.registry,
    'dex_ws_slow_consumers_dropped_total',
    'WebSocket streams cut off because their client stopped reading, by stream',
    ['stream'],
  );
  private readonly dataRequests = counter(
    this.registry,
    'dex_data_api_requests_total',
    'Data API answers, by route pattern (unmatched for unknown paths) and status code',
    ['route', 'status'],
  );
  private readonly quotaRefusals = counter(
    this.registry,
    'dex_data_api_quota_refusals_total',
    'Data API requests refused because the monthly quota of their key was used up',
  );
  private readonly commits = histogram(
    this.registry,
    'dex_store_commit_seconds',
    'Time one commit group of the trading desk took to store (one SQLite transaction)',
    FAST_BUCKETS,
  );
  private readonly committedTurns = counter(this.registry, 'dex_store_commit_turns_total', 'Desk turns stored by commit groups');
  private readonly saveStages = histogram(
    this.registry,
    'dex_order_save_stage_seconds',
    'Time each stage of a POST /orders/save batch took: check, deduplicate, verify, funds, desk',
    FAST_BUCKETS,
    ['stage'],
  );
  private readonly deskTurns = histogram(
    this.registry,
    'dex_desk_turn_seconds',
    'Time a desk turn waited for the turns before it (waited), ran (ran), then waited for its commit group (stored)',
    FAST_BUCKETS,
    ['phase'],
  );

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  orderIntake(outcome: string, orders: number): void {
    if (orders > 0) this.intake.inc({ outcome }, orders);
  }

  matchLatency(seconds: number): void {
    this.matching.observe(seconds);
  }

  fills(bookId: number, venue: 'book' | 'pool', trades: number): void {
    if (trades > 0) this.trades.inc({ book: String(bookId), venue }, trades);
  }

  settlementBatch(outcome: SettlementBatchOutcome, fills: number): void {
    this.batches.inc({ outcome });
    this.batchFills.inc({ outcome }, fills);
  }

  fillReverted(reason: string): void {
    this.reverts.inc({ reason });
  }

  settlementLag(seconds: number): void {
    this.lag.observe(Math.max(0, seconds));
  }

  indexerLag(blocks: number): void {
    this.indexer.set(Math.max(0, blocks));
  }

  streamConnections(stream: string, delta: 1 | -1): void {
    this.connections.inc({ stream }, delta);
  }

  streamMessagesSent(stream: string, messages: number): void {
    if (messages > 0) this.messages.inc({ stream }, messages);
  }

  slowConsumerDropped(stream: string): void {
    this.slow.inc({ stream });
  }

  dataApiRequest(route: string, status: number): void {
    this.dataRequests.inc({ route, status: String(status) });
  }

  dataApiQuotaRefused(): void {
    this.quotaRefusals.inc();
  }

  storeCommit(seconds: number, turns: number): void {
    this.commits.observe(seconds);
    this.committedTurns.inc(turns);
  }

  saveStage(stage: SaveStage, seconds: number): void {
    this.saveStages.observe({ stage }, seconds);
  }

  deskTurn({ waited, ran, stored }: { readonly waited: number; readonly ran: number; readonly stored: number }): void {
    this.deskTurns.observe({ phase: 'waited' }, waited);
    this.deskTurns.observe({ phase: 'ran' }, ran);
    this.deskTurns.observe({ phase: 'stored' }, stored);
  }
}
