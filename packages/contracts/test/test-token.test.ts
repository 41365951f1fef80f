import { type Address, encodeAbiParameters, keccak256, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, mined, mintTo, newToken, revertOf, TestToken } from './support/amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';

let devnet: TestDevnet;
let operator: Wallet;

beforeAll(async () => {
  devnet = await startTestDevnet();
  operator = await devnet.newWallet();
});

afterAll(async () => {
  await devnet?.stop();
});

describe('TestToken minters', () => {
  it('lets the minter add minters, who mint alongside it', async () => {
    const token = await newToken(devnet, operator, 'TKN', 6);
    const farm = await devnet.newWallet();
    const receipt = await mined(
      devnet,
      operator.writeContract({ address: token, abi: TestToken.abi, functionName: 'addMinter', args: [farm.account.address] }),
    );
    expect(parseEventLogs({ abi: TestToken.abi, logs: receipt.logs, eventName: 'MinterAdded' })[0]?.args).toEqual({
      account: farm.account.address,
    });
    expect(
      await devnet.public.readContract({
        address: token,
        abi: TestToken.abi,
        functionName: 'isMinter',
        args: [farm.account.address],
      }),
    ).toBe(true);
    await mintTo(devnet, farm, token, farm.account.address, 5n);
    await mintTo(devnet, operator, token, farm.account.address, 7n);
    expect(await balanceOf(devnet, token, farm.account.address)).toBe(12n);
    expect(await devnet.public.readContract({ address: token, abi: TestToken.abi, functionName: 'minter' })).toBe(
      operator.account.address,
    );
  });

  it('refuses addMinter from anyone but the minter, and mint from anyone not a minter', async () => {
    const token = await newToken(devnet, operator, 'TKN', 6);
    const added = await devnet.newWallet();
    const stranger = await devnet.newWallet();
    await mined(
      devnet,
      operator.writeContract({ address: token, abi: TestToken.abi, functionName: 'addMinter', args: [added.account.address] }),
    );
    // An added minter mints but does not add others.
    for (const wallet of [added, stranger]) {
      const call = wallet.writeContract({
        address: token,
        abi: TestToken.abi,
        functionName: 'addMinter',
        args: [stranger.account.address],
      });
      expect((await revertOf(call)).name).toBe('NotMinter');
    }
    const mint = stranger.writeContract({
      address: token,
      abi: TestToken.abi,
      functionName: 'mint',
      args: [stranger.account.address, 1n],
    });
    expect((await revertOf(mint)).name).toBe('NotMinter');
  });

  it('keeps the storage layout of tokens installed before minters were added', async () => {
    const token = await newToken(devnet, operator, 'TKN', 8);
    const holder = await devnet.newWallet();
    await mintTo(devnet, operator, token, holder.account.address, 1234n);
    await mined(
      devnet,
      operator.writeContract({ address: token, abi: TestToken.abi, functionName: 'addMinter', args: [holder.account.address] }),
    );
    const slot = async (index: `0x${string}`) =>
      BigInt((await devnet.public.getStorageAt({ address: token, slot: index })) ?? '0x0');
    const mappingSlot = (key: Address, index: bigint) =>
      keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [key, index]));
    // The original layout: name 0, symbol 1, decimals and minter packed in 2, totalSupply 3,
    // balanceOf 4, allowance 5; the new isMinter mapping comes after, at 6.
    expect(await slot('0x2')).toBe((BigInt(operator.account.address) << 8n) | 8n);
    expect(await slot('0x3')).toBe(1234n);
    expect(await slot(mappingSlot(holder.account.address, 4n))).toBe(1234n);
    expect(await slot(mappingSlot(holder.account.address, 6n))).toBe(1n);
  });
});
