import { toDisplayAmount } from '@dex/core';
import type { AmmAdmin, FarmPool } from '../../../ports/amm-admin.js';
import type { OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { UsageError } from '../operator-options.js';
import { connectAmm, rawAmount, symbolOf, tokensByAddress, wholeOperand } from './amm-access.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** A farm pool for people: its pid, the pool whose LP it stakes, allocation points and stake. */
async function describeFarmPool(pool: FarmPool, amm: AmmAdmin, io: OperatorIo): Promise<string> {
  const tokens = await tokensByAddress(io);
  const pair = (await amm.pools()).find((candidate) => candidate.pair.toLowerCase() === pool.lpToken.toLowerCase());
  const name = pair === undefined ? pool.lpToken : `${symbolOf(pair.token0, tokens)}/${symbolOf(pair.token1, tokens)} LP`;
  return `${pool.pid}\t${name}\t${pool.lpToken}\talloc ${pool.allocPoint}\tstaked ${toDisplayAmount(pool.totalStaked, 8)}`;
}

/** The LP token of `<lpToken|poolId>`: an address as given, a pool id as its pair. */
async function lpTokenOf(reference: string | undefined, amm: AmmAdmin): Promise<string> {
  if (reference === undefined) throw new UsageError('farm add needs an LP token (0x...) or a pool id');
  if (EVM_ADDRESS.test(reference)) return reference;
  const id = wholeOperand(reference, 'the pool id');
  const pool = (await amm.pools()).find((candidate) => BigInt(candidate.id) === id);
  if (pool === undefined) throw new UsageError(`no pool ${reference} (pool list shows them)`);
  return pool.pair;
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
                       a farm pool staking the LP token (0x..., or the pair of a pool id of pool
                       list), with its allocation points: its share of the rewards. Farm writes are
                       the farm owner's: on CHAIN=rpc sent with its key, --key-file`,
  async run({ operands, values, print }, io) {
    const allocPoint = wholeOperand(operands[1], 'allocPoint');
    const amm = await connectAmm(io, values, 'farm add');
    const pool = await amm.addFarm(await lpTokenOf(operands[0], amm), allocPoint);
    print(pool, `added farm pool ${await describeFarmPool(pool, amm, io)}`);
    return 0;
  },
};

export const farmSetCommand: OperatorCommand = {
  group: 'farm',
  actions: ['set'],
  synopsis: ` <pid> <allocPoint> [--key-file FILE]
                       change a farm pool's allocation points`,
  async run({ operands, values, print }, io) {
    const pid = wholeOperand(operands[0], 'pid');
    const allocPoint = wholeOperand(operands[1], 'allocPoint');
    const amm = await connectAmm(io, values, 'farm set');
    const pool = await amm.setFarm(Number(pid), allocPoint);
    print(pool, `farm pool ${await describeFarmPool(pool, amm, io)}`);
    return 0;
  },
};

export const farmEmissionsCommand: OperatorCommand = {
  group: 'farm',
  actions: ['emissions'],
  synopsis: ` <saucePerSecond> <hbarPerSecond> [--key-file FILE]
                       the whole farm's reward rates in whole units a second ("0.1"), shared by
                       allocation points; HBAR is paid out of the farm's coin balance (farm fund)`,
  async run({ operands, values, print }, io) {
    const amm = await connectAmm(io, values, 'farm emissions');
    const saucePerSecond = rawAmount(operands[0], await sauceDecimals(amm, io), 'saucePerSecond');
    const nativePerSecond = rawAmount(operands[1], amm.nativeDecimals, 'hbarPerSecond');
    await amm.setEmissions(saucePerSecond, nativePerSecond);
    print(
      { saucePerSecond, nativePerSecond },
      `farm emissions: ${operands[0]} SAUCE and ${operands[1]} HBAR a second (raw ${saucePerSecond} and ${nativePerSecond})`,
    );
    return 0;
  },
};

export const farmFundCommand: OperatorCommand = {
  group: 'farm',
  actions: ['fund'],
  synopsis: ` <hbar> [--key-file FILE]
                       send native coin (whole units) to the farm for its HBAR rewards: from the
                       devnet's issuer, or on CHAIN=rpc from the --key-file holder`,
  async run({ operands, values, print }, io) {
    const amm = await connectAmm(io, values, 'farm fund');
    const amount = rawAmount(operands[0], amm.nativeDecimals, 'hbar');
    if (amount === 0n) throw new UsageError('hbar must be more than zero');
    await amm.fundFarm(amount);
    const { nativeBalance } = await amm.farm();
    print(
      { amount, nativeBalance },
      `sent ${operands[0]} HBAR to the farm; it holds ${toDisplayAmount(nativeBalance, amm.nativeDecimals)} HBAR`,
    );
    return 0;
  },
};

export const farmListCommand: OperatorCommand = {
  group: 'farm',
  actions: ['list'],
  synopsis: "            the farm's rates, coin balance and pools",
  async run({ values, print }, io) {
    const amm = await connectAmm(io, values, null);
    const farm = await amm.farm();
    const decimals = await sauceDecimals(amm, io);
    const lines = [
      `emissions ${toDisplayAmount(farm.saucePerSecond, decimals)} SAUCE/s, ${toDisplayAmount(farm.nativePerSecond, amm.nativeDecimals)} HBAR/s; balance ${toDisplayAmount(farm.nativeBalance, amm.nativeDecimals)} HBAR; ${farm.totalAllocPoint} allocation points`,
      ...(await Promise.all(farm.pools.map((pool) => describeFarmPool(pool, amm, io)))),
    ];
    print(farm, lines.join('\n'));
    return 0;
  },
};
