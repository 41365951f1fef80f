import { AmmFactory, Farm, PartialFillLimitOrderReactor, TestToken } from '@dex/contracts';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVNET_ADDRESS, type Harness, RealTimeClock, startHarness } from '../../../test-support/harness.js';
import type { ChainContext } from '../chain-context.js';
import { readDevnetRecord, writeDevnetRecord } from '../devnet-record.js';
import { DEVNET_ISSUER_ADDRESS } from './devnet-issuer.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new RealTimeClock() });
});

afterAll(async () => {
  await h?.close();
});

function chain(): ChainContext {
  const { chain } = h.services;
  if (chain === null) throw new Error('settlement is off');
  return chain;
}

function amm() {
  const deployed = chain().amm;
  if (deployed === null) throw new Error(`no AMM: ${h.logs()}`);
  return deployed;
}

const deployments = () => h.logs().match(/deployed the AMM on the devnet chain/g)?.length ?? 0;

describe('the AMM of the embedded devnet', () => {
  it('is deployed on the first boot, recorded, wired to the reactor, its farm minting SAUCE and owned by the issuer', async () => {
    const { factory, router, farm, staking } = amm();
    const reads = chain().public;
    for (const address of [factory, router, farm, staking]) {
      expect(await reads.getCode({ address })).toMatch(/^0x[0-9a-f]{10,}/);
    }
    expect(readDevnetRecord(h.config.dataDir)?.amm).toEqual({ factory, router, farm, staking });
    expect(
      await reads.readContract({ address: chain().reactor, abi: PartialFillLimitOrderReactor.abi, functionName: 'pairFactory' }),
    ).toBe(factory);
    const sauce = getAddress(DEVNET_ADDRESS.SAUCE);
    expect(await reads.readContract({ address: farm, abi: Farm.abi, functionName: 'sauce' })).toBe(sauce);
    expect(await reads.readContract({ address: sauce, abi: TestToken.abi, functionName: 'isMinter', args: [farm] })).toBe(true);
    expect(await reads.readContract({ address: farm, abi: Farm.abi, functionName: 'owner' })).toBe(DEVNET_ISSUER_ADDRESS);
    expect(await reads.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'feeToSetter' })).toBe(
      DEVNET_ISSUER_ADDRESS,
    );
    expect(deployments()).toBe(1);
  });

  it('is reused by a restart', async () => {
    const before = amm();
    await h.restart();
    expect(amm()).toEqual(before);
    expect(deployments()).toBe(1);
    expect(readDevnetRecord(h.config.dataDir)?.amm).toEqual(before);
  });

  it('is deployed again when the recorded factory has no code (a chain that lost it)', async () => {
    const before = amm();
    await h.restart(() => {
      const record = readDevnetRecord(h.config.dataDir);
      if (record === null) throw new Error('no devnet record');
      writeDevnetRecord(h.config.dataDir, {
        ...record,
        amm: { ...before, factory: '0x00000000000000000000000000000000000fac70' },
      });
    });
    const after = amm();
    expect(after.factory).not.toBe(before.factory);
    expect(deployments()).toBe(2);
    expect(readDevnetRecord(h.config.dataDir)?.amm).toEqual(after);
    expect(
      await chain().public.readContract({
        address: chain().reactor,
        abi: PartialFillLimitOrderReactor.abi,
        functionName: 'pairFactory',
      }),
    ).toBe(after.factory);
  });

  it('refuses to start on a recorded reactor of an earlier version, and says how to start afresh', async () => {
    const record = readDevnetRecord(h.config.dataDir);
    if (record === null) throw new Error('no devnet record');
    // A contract without `permit2` stands in for a reactor of an earlier version.
    const old = { ...record, reactor: getAddress(DEVNET_ADDRESS.SAUCE) };
    await expect(h.restart(() => writeDevnetRecord(h.config.dataDir, old))).rejects.toThrow(
      /reactor .* from an earlier version, which does not settle through Permit2: start with an empty DATA_DIR/,
    );
    await h.restart(() => writeDevnetRecord(h.config.dataDir, record));
    expect(chain().reactor).toBe(record.reactor);
  });
});
