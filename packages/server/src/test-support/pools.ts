import type { Services } from '../composition/services.js';

/** The account that holds {@link recordPool}'s stake. */
export const STAKER = '0.0.5005';

/**
 * Writes by hand, through the store's ports, pool 1 (WHBAR/USDC: 1,000 WHBAR and 251 USDC
 * with 500 LP tokens), farm 7 on it (1.5 protocol tokens and 0.0000002 HBAR a second, 10 LP
 * tokens staked) and {@link STAKER}'s stake of 4 LP tokens; then reloads the registry.
 */
export async function recordPool(host: { readonly services: Services }): Promise<void> {
  const { store, clock, registry } = host.services;
  await store.pools.save({
    id: 1,
    contractId: '0.0.3001',
    // The pair is its own LP token, not a token of the registry.
    lpTokenId: '0.0.2001',
    lpTokenName: 'WHBAR/USDC liquidity',
    lpTokenSymbol: 'SSLP-WHBAR-USDC',
    lpTokenDecimals: 8,
    tokenAId: '0.0.1001',
    tokenBId: '0.0.1002',
    lpTokenReserve: 500n * 10n ** 8n,
    tokenReserveA: 1_000n * 10n ** 8n,
    tokenReserveB: 251n * 10n ** 6n,
    updatedAt: clock.now(),
  });
  await store.farms.save({
    id: 7,
    poolId: 1,
    sauceEmissions: 1_500_000n,
    hbarEmissions: 20n,
    totalStaked: 10n ** 9n,
    updatedAt: clock.now(),
  });
  await store.farms.saveStake({ farmId: 7, accountId: STAKER, staked: 4n * 10n ** 8n, updatedAt: clock.now() });
  await registry.load();
}
