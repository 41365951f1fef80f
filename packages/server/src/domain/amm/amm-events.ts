/**
 * The AMM's events as the indexer reads them from the chain (pair factory, pairs, farm, SAUCE
 * staking), decoded into plain values: addresses lower-case, amounts in raw units.
 */

/** Where an event sits on the chain; events apply in (block, logIndex) order. */
export interface ChainPosition {
  readonly block: bigint;
  readonly logIndex: number;
  /** The block's timestamp, unix ms. */
  readonly atMs: number;
}

/** A pair's events: its creation by the factory, and what changes its reserves and LP supply. */
export type PairEvent =
  | { readonly kind: 'created'; readonly pair: string; readonly token0: string; readonly token1: string; readonly index: bigint }
  /** LP units minted (a Transfer from the zero address). */
  | { readonly kind: 'lpMinted'; readonly pair: string; readonly amount: bigint }
  /** LP units burnt (a Transfer from the pair itself to the zero address, as only its burn makes). */
  | { readonly kind: 'lpBurnt'; readonly pair: string; readonly amount: bigint }
  | { readonly kind: 'sync'; readonly pair: string; readonly reserve0: bigint; readonly reserve1: bigint }
  | {
      readonly kind: 'swap';
      readonly pair: string;
      readonly amount0In: bigint;
      readonly amount1In: bigint;
      readonly amount0Out: bigint;
      readonly amount1Out: bigint;
    };

/** The farm's events; `pid` is the farm contract's pool index. */
export type FarmEvent =
  | { readonly kind: 'farmAdded'; readonly pid: number; readonly lpToken: string; readonly allocPoint: bigint }
  | { readonly kind: 'farmSet'; readonly pid: number; readonly allocPoint: bigint }
  /** Rates for the whole farm: SAUCE raw units and native wei per second. */
  | { readonly kind: 'emissionsSet'; readonly saucePerSecond: bigint; readonly nativePerSecond: bigint }
  | { readonly kind: 'staked'; readonly pid: number; readonly account: string; readonly amount: bigint }
  /** A Withdraw or an EmergencyWithdraw. */
  | { readonly kind: 'unstaked'; readonly pid: number; readonly account: string; readonly amount: bigint };

/** SAUCE staking: SAUCE moved in or out of the staking contract, xSAUCE shares minted or burnt. */
export type StakingEvent =
  | { readonly kind: 'sauceIn'; readonly amount: bigint }
  | { readonly kind: 'sauceOut'; readonly amount: bigint }
  | { readonly kind: 'sharesMinted'; readonly amount: bigint }
  | { readonly kind: 'sharesBurnt'; readonly amount: bigint };

export type AmmEvent = (PairEvent | FarmEvent | StakingEvent) & ChainPosition;

/** Orders events as the chain applied them. */
export function byChainPosition(a: ChainPosition, b: ChainPosition): number {
  return a.block === b.block ? a.logIndex - b.logIndex : a.block < b.block ? -1 : 1;
}
