import { type Address, encodeAbiParameters, getAddress, keccak256, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installTestToken, isAssociated } from '../src/devnet-chain.js';
import { TestTokenBeforeMinters } from '../src/generated/artifacts.js';
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

describe('TestToken associations (HIP-719)', () => {
  it("pays an account only once it associated, answering the ledger's SUCCESS (22)", async () => {
    const token = await newToken(devnet, operator, 'TKN', 6);
    const account = await devnet.newWallet();
    const mint = () =>
      operator.writeContract({ address: token, abi: TestToken.abi, functionName: 'mint', args: [account.account.address, 5n] });
    expect(await revertOf(mint())).toEqual({ name: 'TokenNotAssociatedToAccount', args: [account.account.address] });
    const { result } = await devnet.public.simulateContract({
      account: account.account,
      address: token,
      abi: TestToken.abi,
      functionName: 'associate',
    });
    expect(result).toBe(22n);
    await mined(devnet, account.writeContract({ address: token, abi: TestToken.abi, functionName: 'associate' }));
    expect(await isAssociated(devnet, token, account.account.address)).toBe(true);
    await mined(devnet, mint());
    expect(await balanceOf(devnet, token, account.account.address)).toBe(5n);
  });
});

describe('installing a test token', () => {
  const spec = (address: Address) => ({ address, name: 'Wrapped HBAR', symbol: 'WHBAR', decimals: 8 });
  const read = <name extends 'name' | 'symbol' | 'decimals' | 'minter' | 'totalSupply'>(address: Address, functionName: name) =>
    devnet.public.readContract({ address, abi: TestToken.abi, functionName });

  it('initialises a fresh token once and leaves an installed one alone', async () => {
    const address = getAddress('0x00000000000000000000000000000000000a0001');
    await installTestToken(devnet, operator, spec(address));
    await mintTo(devnet, operator, address, operator.account.address, 99n);
    await installTestToken(devnet, operator, { ...spec(address), name: 'Another name' });
    expect(await read(address, 'name')).toBe('Wrapped HBAR');
    expect(await read(address, 'minter')).toBe(operator.account.address);
    expect(await balanceOf(devnet, address, operator.account.address)).toBe(99n);
  });

  it('upgrades a token of the code before minters were added, keeping its name, minter and balances', async () => {
    const address = getAddress('0x00000000000000000000000000000000000a0002');
    const holder = await devnet.newWallet();
    // A devnet made before: the old code, initialised and minted from.
    await devnet.test.setCode({ address, bytecode: TestTokenBeforeMinters.deployedBytecode });
    await mined(
      devnet,
      operator.writeContract({
        address,
        abi: TestTokenBeforeMinters.abi,
        functionName: 'initialize',
        args: ['Wrapped HBAR', 'WHBAR', 8, operator.account.address],
      }),
    );
    await mined(
      devnet,
      operator.writeContract({
        address,
        abi: TestTokenBeforeMinters.abi,
        functionName: 'mint',
        args: [holder.account.address, 1234n],
      }),
    );
    const addMinter = () =>
      operator.writeContract({ address, abi: TestToken.abi, functionName: 'addMinter', args: [holder.account.address] });
    await expect(addMinter()).rejects.toThrow();

    const stranger = await devnet.newWallet();
    await installTestToken(devnet, stranger, spec(address));
    expect((await devnet.public.getCode({ address }))?.toLowerCase()).toBe(TestToken.deployedBytecode.toLowerCase());
    expect(await read(address, 'symbol')).toBe('WHBAR');
    expect(await read(address, 'decimals')).toBe(8);
    expect(await read(address, 'minter')).toBe(operator.account.address);
    expect(await read(address, 'totalSupply')).toBe(1234n);
    expect(await balanceOf(devnet, address, holder.account.address)).toBe(1234n);
    // The old balance stands for the association the old code did not know; a new account has none.
    expect(await isAssociated(devnet, address, holder.account.address)).toBe(true);
    expect(await isAssociated(devnet, address, stranger.account.address)).toBe(false);
    // What the new code added works on the old storage.
    await mined(devnet, addMinter());
    await mintTo(devnet, holder, address, holder.account.address, 1n);
    expect(await balanceOf(devnet, address, holder.account.address)).toBe(1235n);
  });
});
