import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { farmWriteGas, gasWithMargin } from '../src/devnet-chain.js';
import { approveMax, associateAs, Farm, latestTime, minedAt, mintTo, newToken, TestToken } from './support/amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';

let devnet: TestDevnet;
let operator: Wallet;
let farm: Address;
/** The latest block's time: every step moves on from it. */
let clock: bigint;

const POOLS = 3n;
const EMISSIONS = [100_000n, 10n ** 15n] as const;

beforeAll(async () => {
  devnet = await startTestDevnet();
  operator = await devnet.newWallet();
  const sauce = await newToken(devnet, operator, 'SAUCE', 6);
  farm = await devnet.deploy(operator, Farm, [operator.account.address, sauce]);
  await minedAt(devnet, (await latestTime(devnet)) + 1n, () =>
    operator.writeContract({ address: sauce, abi: TestToken.abi, functionName: 'addMinter', args: [farm] }),
  );
  const staker = await devnet.newWallet();
  await associateAs(devnet, staker.account.address, sauce);
  clock = await latestTime(devnet);
  for (let pid = 0n; pid < POOLS; pid++) {
    const lp = await newToken(devnet, operator, `LP${pid}`, 8);
    await mintTo(devnet, operator, lp, staker.account.address, 10n ** 12n);
    await approveMax(devnet, staker, lp, farm);
    clock = (await latestTime(devnet)) + 1n;
    await minedAt(devnet, clock, () =>
      operator.writeContract({ address: farm, abi: Farm.abi, functionName: 'add', args: [1n, lp] }),
    );
    await minedAt(devnet, ++clock, () =>
      staker.writeContract({ address: farm, abi: Farm.abi, functionName: 'deposit', args: [pid, 10n ** 12n] }),
    );
  }
});

afterAll(async () => {
  await devnet?.stop();
});

/**
 * setEmissions estimated on the latest block, in which every pool was updated (nothing accrues
 * there), then sent with `gas` in a block ten seconds later, in which every pool accrues.
 */
async function setEmissionsLater(gas: (estimate: bigint) => bigint): Promise<'success' | 'reverted'> {
  const call = { address: farm, abi: Farm.abi, functionName: 'setEmissions', args: EMISSIONS } as const;
  const estimate = await devnet.public.estimateContractGas({ ...call, account: operator.account, blockTag: 'latest' });
  clock += 10n;
  await devnet.test.setNextBlockTimestamp({ timestamp: clock });
  const hash = await operator.writeContract({ ...call, gas: gas(estimate) });
  return (await devnet.public.waitForTransactionReceipt({ hash })).status;
}

describe('farm write gas', () => {
  it('leaves room for every pool accruing between the estimate and the block, which half again of the estimate does not', async () => {
    // The devnet's seeding: the first emissions, over three staked pools updated in the latest block.
    await minedAt(devnet, ++clock, () =>
      operator.writeContract({ address: farm, abi: Farm.abi, functionName: 'massUpdatePools' }),
    );
    const updated = await devnet.test.snapshot();
    const updatedAt = clock;
    expect(await setEmissionsLater(gasWithMargin)).toBe('reverted');
    await devnet.test.revert({ id: updated });
    clock = updatedAt;
    expect(await setEmissionsLater((estimate) => farmWriteGas(estimate, POOLS))).toBe('success');
    // Emissions running: each pool's accumulators are written from zero, the dearest accrual.
    expect(await setEmissionsLater((estimate) => farmWriteGas(estimate, POOLS))).toBe('success');
  });
});
