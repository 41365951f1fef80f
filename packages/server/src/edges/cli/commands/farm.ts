import { toDisplayAmount } from '@dex/core';
import type { AmmAdmin, AmmPool, FarmPool } from '../../../ports/amm-admin.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { UsageError } from '../operator-options.js';
import { connectAmm, pickById, rawAmount, symbolOf, tokensByAddress, wholeOperand } from './amm-access.js';
import { hbarAsWei, hbarOfWei } from './hbar-amount.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The pool whose LP token a farm pool stakes; undefined for any other token. */
function stakedPool(pool: FarmPool, pools: readonly AmmPool[]): AmmPool | undefined {
  return pools.find((candidate) => candidate.pair.toLowerCase() === pool.lpToken.toLowerCase());
}

/** A farm pool as JSON: with the id of the pool whose LP it stakes (null: another token), as the data API's farms have. */
function farmView(pool: FarmPool, pools: readonly AmmPool[]): FarmPool & { readonly poolId: number | null } {
  return { ...pool, poolId: stakedPool(pool, pools)?.id ?? null };
}

/** A farm pool for people: its pid, the pool whose LP it stakes, allocation points and stake. */
async function describeFarmPool(pool: FarmPool, pools: readonly AmmPool[], io: OperatorIo): Promise<string> {
  const tokens = await tokensByAddress(io);
  const pair = stakedPool(pool, pools);
  const name =
    pair === undefined ? pool.lpToken : `pool ${pair.id} ${symbolOf(pair.token0, tokens)}/${symbolOf(pair.token1, tokens)} LP`;
  return `${pool.pid}\t${name}\t${pool.lpToken}\talloc ${pool.allocPoint}\tstaked ${toDisplayAmount(pool.totalStaked, 8)}`;
}

/** Prints one farm pool: as JSON with its pool id, else `text` and its line. */
async function printFarmPool(
  pool: FarmPool,
  text: string,
  amm: AmmAdmin,
  io: OperatorIo,
  print: (value: unknown, text: string) => void,
): Promise<void> {
  const pools = await amm.pools();
  print(farmView(pool, pools), `${text} ${await describeFarmPool(pool, pools, io)}`);
}

/** The LP token of `<lpToken|poolId>`: an address as given, a pool id (from 1, as pool list shows) as its pair. */
async function lpTokenOf(reference: string | undefined, amm: AmmAdmin): Promise<string> {
  if (reference === undefined) throw new UsageError('farm add needs an LP token (0x...) or a pool id');
  if (EVM_ADDRESS.test(reference)) return reference;
  return pickById(await amm.pools(), (pool) => pool.id, reference, 'pool', 'pool list').pair;
}

/** SAUCE's decimals: those of the registry token the farm mints. */
async function sauceDecimals(amm: AmmAdmin, io: OperatorIo): Promise<number> {
  const { sauce } = await amm.farm();
  const token = (await tokensByAddress(io)).get(sauce.toLowerCase());
  if (token === undefined) throw new UsageError(`the farm's reward token ${sauce} is not in the token registry`);
  return token.decimals;
}

export const farmAddCommand: OperatorCommand = {
  group: 'farm',
  actions: ['add'],
  synopsis: ` <lpToken|poolId> <allocPoint> [--key-file FILE]
                       a farm pool staking the LP token (0x..., or the pair of a pool id: from 1, as
                       pool list and the data API's /pools show it), with its allocation points: its
                       share of the rewards. Farm writes are the farm owner's: on CHAIN=rpc sent
                       with its key, --key-file`,
  async run({ operands, values, print }, io) {
    const allocPoint = wholeOperand(operands[1], 'allocPoint');
    const amm = await connectAmm(io, values, 'farm add');
    const pool = await amm.addFarm(await lpTokenOf(operands[0], amm), allocPoint);
    await printFarmPool(pool, 'added farm pool', amm, io, print);
    return 0;
  },
};

export const farmSetCommand: OperatorCommand = {
  group: 'farm',
  actions: ['set'],
  synopsis: ` <farmId> <allocPoint> [--key-file FILE]
                       change a farm pool's allocation points; farm ids are the farm contract's
                       pids, from 0, as farm list and the data API's /farms show them`,
  async run({ operands, values, print }, io) {
    const allocPoint = wholeOperand(operands[1], 'allocPoint');
    const amm = await connectAmm(io, values, 'farm set');
    const { pid } = pickById((await amm.farm()).pools, (pool) => pool.pid, operands[0], 'farm', 'farm list');
    const pool = await amm.setFarm(pid, allocPoint);
    await printFarmPool(pool, 'farm pool', amm, io, print);
    return 0;
  },
};

export const farmEmissionsCommand: OperatorCommand = {
  group: 'farm',
  actions: ['emissions'],
  synopsis: ` <saucePerSecond> <hbarPerSecond> [--key-file FILE]
                       the whole farm's reward rates in whole units a second ("0.1"; HBAR to 8
                       decimals, the tinybar), shared by allocation points; HBAR is paid out of the
                       farm's coin balance (farm fund)`,
  async run({ operands, values, print }, io) {
    const amm = await connectAmm(io, values, 'farm emissions');
    const decimals = await sauceDecimals(amm, io);
    const saucePerSecond = rawAmount(operands[0], decimals, 'saucePerSecond');
    const nativePerSecond = hbarAsWei(operands[1], 'hbarPerSecond');
    await amm.setEmissions(saucePerSecond, nativePerSecond);
    print(
      { saucePerSecond, nativePerSecond },
      `farm emissions: ${toDisplayAmount(saucePerSecond, decimals)} SAUCE and ${hbarOfWei(nativePerSecond)} HBAR a second (raw ${saucePerSecond} SAUCE units and ${nativePerSecond} wei)`,
    );
    return 0;
  },
};

export const farmFundCommand: OperatorCommand = {
  group: 'farm',
  actions: ['fund'],
  synopsis: ` <hbar> [--key-file FILE]
                       send HBAR (whole units, to 8 decimals) to the farm for its HBAR rewards: from
                       the devnet's issuer, or on CHAIN=rpc from the --key-file holder`,
  async run({ operands, values, print }, io) {
    const amm = await connectAmm(io, values, 'farm fund');
    const amount = hbarAsWei(operands[0], 'hbar');
    if (amount === 0n) throw new UsageError('hbar must be more than zero');
    await amm.fundFarm(amount);
    const { nativeBalance } = await amm.farm();
    print({ amount, nativeBalance }, `sent ${hbarOfWei(amount)} HBAR to the farm; it holds ${hbarOfWei(nativeBalance)} HBAR`);
    return 0;
  },
};

export const farmListCommand: OperatorCommand = {
  group: 'farm',
  actions: ['list'],
  synopsis: `            the farm's rates, coin balance and pools (farm id, pool id); HBAR to 8
                       decimals, --json in the chain's raw units (wei for HBAR)`,
  async run({ values, print }, io) {
    const amm = await connectAmm(io, values, null);
    const farm = await amm.farm();
    const decimals = await sauceDecimals(amm, io);
    const pools = await amm.pools();
    const lines = [
      `emissions ${toDisplayAmount(farm.saucePerSecond, decimals)} SAUCE/s, ${hbarOfWei(farm.nativePerSecond)} HBAR/s; balance ${hbarOfWei(farm.nativeBalance)} HBAR; ${farm.totalAllocPoint} allocation points`,
      ...(await Promise.all(farm.pools.map((pool) => describeFarmPool(pool, pools, io)))),
    ];
    print({ ...farm, pools: farm.pools.map((pool) => farmView(pool, pools)) }, lines.join('\n'));
    return 0;
  },
};
