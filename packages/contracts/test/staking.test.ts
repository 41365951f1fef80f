import { type Address, parseEventLogs } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveMax, balanceOf, mined, mintTo, newToken, Prng, revertOf, SauceStaking } from './support/amm.js';
import { startTestDevnet, type TestDevnet, type Wallet } from './support/devnet.js';

const E6 = 1_000_000n;

let devnet: TestDevnet;
let operator: Wallet;
let sauce: Address;

beforeAll(async () => {
  devnet = await startTestDevnet();
  operator = await devnet.newWallet();
  sauce = await newToken(devnet, operator, 'SAUCE', 6);
});

afterAll(async () => {
  await devnet?.stop();
});

async function newStaking(): Promise<Address> {
  return devnet.deploy(operator, SauceStaking, [sauce]);
}

/** A wallet holding `amount` SAUCE, approved to the staking contract. */
async function holder(staking: Address, amount = 1_000_000n * E6): Promise<Wallet> {
  const wallet = await devnet.newWallet();
  await mintTo(devnet, operator, sauce, wallet.account.address, amount);
  await approveMax(devnet, wallet, sauce, staking);
  return wallet;
}

const enter = (wallet: Wallet, staking: Address, amount: bigint) =>
  mined(devnet, wallet.writeContract({ address: staking, abi: SauceStaking.abi, functionName: 'enter', args: [amount] }));
const leave = (wallet: Wallet, staking: Address, shares: bigint) =>
  mined(devnet, wallet.writeContract({ address: staking, abi: SauceStaking.abi, functionName: 'leave', args: [shares] }));
/** Rewards are plain SAUCE transfers to the contract. */
const reward = (staking: Address, amount: bigint) => mintTo(devnet, operator, sauce, staking, amount);

const supplyOf = (staking: Address) =>
  devnet.public.readContract({ address: staking, abi: SauceStaking.abi, functionName: 'totalSupply' });

describe('SauceStaking', () => {
  it('is the xSAUCE token, minting one for one while empty', async () => {
    const staking = await newStaking();
    const read = <const name extends 'name' | 'symbol' | 'decimals' | 'sauce'>(functionName: name) =>
      devnet.public.readContract({ address: staking, abi: SauceStaking.abi, functionName });
    expect([await read('name'), await read('symbol'), await read('decimals')]).toEqual(['xSAUCE', 'XSAUCE', 6]);
    expect((await read('sauce')).toLowerCase()).toBe(sauce.toLowerCase());
    const alice = await holder(staking);
    const receipt = await enter(alice, staking, 123n * E6 + 4n);
    expect(await balanceOf(devnet, staking, alice.account.address)).toBe(123n * E6 + 4n);
    const [entered] = parseEventLogs({ abi: SauceStaking.abi, logs: receipt.logs, eventName: 'Enter' });
    expect(entered?.args).toEqual({ user: alice.account.address, sauce: 123n * E6 + 4n, xsauce: 123n * E6 + 4n });
    const transfers = parseEventLogs({ abi: SauceStaking.abi, logs: receipt.logs, eventName: 'Transfer' });
    // The SAUCE moving in (from the token) and the xSAUCE minted (from the staking contract).
    expect(transfers.map((event) => [event.address.toLowerCase(), event.args.from, event.args.to, event.args.value])).toEqual([
      [sauce.toLowerCase(), alice.account.address, expect.stringMatching(new RegExp(staking, 'i')), 123n * E6 + 4n],
      [staking.toLowerCase(), '0x0000000000000000000000000000000000000000', alice.account.address, 123n * E6 + 4n],
    ]);
  });

  it('raises the xSAUCE ratio when SAUCE is sent to the contract', async () => {
    const staking = await newStaking();
    const alice = await holder(staking);
    const bob = await holder(staking);
    await enter(alice, staking, 1_000n * E6);
    await reward(staking, 500n * E6); // 1,500 SAUCE for 1,000 xSAUCE
    const bobSauce = await balanceOf(devnet, sauce, bob.account.address);
    await enter(bob, staking, 300n * E6);
    expect(await balanceOf(devnet, staking, bob.account.address)).toBe(200n * E6);
    await reward(staking, 120n * E6); // 1,920 SAUCE for 1,200 xSAUCE: 1.6 a share
    const aliceSauce = await balanceOf(devnet, sauce, alice.account.address);
    const receipt = await leave(alice, staking, 1_000n * E6);
    expect(await balanceOf(devnet, sauce, alice.account.address)).toBe(aliceSauce + 1_600n * E6);
    const [left] = parseEventLogs({ abi: SauceStaking.abi, logs: receipt.logs, eventName: 'Leave' });
    expect(left?.args).toEqual({ user: alice.account.address, sauce: 1_600n * E6, xsauce: 1_000n * E6 });
    await leave(bob, staking, 200n * E6);
    expect(await balanceOf(devnet, sauce, bob.account.address)).toBe(bobSauce + 20n * E6);
    expect([await supplyOf(staking), await balanceOf(devnet, sauce, staking)]).toEqual([0n, 0n]);
  });

  it("rounds every entry and exit in the contract's favour", async () => {
    const staking = await newStaking();
    const alice = await holder(staking);
    const bob = await holder(staking);
    await enter(alice, staking, 3n);
    await reward(staking, 4n); // 7 SAUCE units for 3 shares
    // 10 units buy floor(10 * 3 / 7) = 4 shares (4.28...); those 4 redeem floor(4 * 17 / 7) = 9.
    expect(
      await devnet.public.readContract({ address: staking, abi: SauceStaking.abi, functionName: 'sharesFor', args: [10n] }),
    ).toBe(4n);
    const before = await balanceOf(devnet, sauce, bob.account.address);
    await enter(bob, staking, 10n);
    expect(await balanceOf(devnet, staking, bob.account.address)).toBe(4n);
    await leave(bob, staking, 4n);
    expect(await balanceOf(devnet, sauce, bob.account.address)).toBe(before - 1n);
    // The unit bob lost stayed with alice's shares: 3 shares now redeem 8.
    expect(
      await devnet.public.readContract({ address: staking, abi: SauceStaking.abi, functionName: 'sauceFor', args: [3n] }),
    ).toBe(8n);
  });

  it('takes nothing from a later staker when the first inflates the share (stake 1 unit, send D)', async () => {
    const staking = await newStaking();
    const attacker = await holder(staking);
    const victim = await holder(staking);
    const donation = 1_000n * E6;
    await enter(attacker, staking, 1n);
    await reward(staking, donation); // one share now claims donation + 1
    const before = await balanceOf(devnet, sauce, victim.account.address);
    // 2D buys one whole share at D + 1 (once the whole 2D, a quarter of it then the attacker's).
    const receipt = await enter(victim, staking, 2n * donation);
    const [entered] = parseEventLogs({ abi: SauceStaking.abi, logs: receipt.logs, eventName: 'Enter' });
    expect(entered?.args).toEqual({ user: victim.account.address, sauce: donation + 1n, xsauce: 1n });
    expect(await balanceOf(devnet, sauce, victim.account.address)).toBe(before - donation - 1n);
    await leave(victim, staking, 1n);
    expect(await balanceOf(devnet, sauce, victim.account.address)).toBe(before);
  });

  it('refuses an entry worth no shares and an exit worth no SAUCE', async () => {
    const staking = await newStaking();
    const alice = await holder(staking);
    await enter(alice, staking, 1n);
    await reward(staking, 999n); // 1,000 units for one share
    const tryEnter = alice.writeContract({ address: staking, abi: SauceStaking.abi, functionName: 'enter', args: [999n] });
    expect((await revertOf(tryEnter)).name).toBe('ZeroShares');
    const tryLeave = alice.writeContract({ address: staking, abi: SauceStaking.abi, functionName: 'leave', args: [0n] });
    expect((await revertOf(tryLeave)).name).toBe('ZeroSauce');
    const overdraw = alice.writeContract({ address: staking, abi: SauceStaking.abi, functionName: 'leave', args: [2n] });
    expect((await revertOf(overdraw)).name).toBe('InsufficientBalance');
    const unapproved = await devnet.newWallet();
    await mintTo(devnet, operator, sauce, unapproved.account.address, 5_000n);
    const noAllowance = unapproved.writeContract({
      address: staking,
      abi: SauceStaking.abi,
      functionName: 'enter',
      args: [5_000n],
    });
    expect((await revertOf(noAllowance)).name).toBe('InsufficientAllowance');
  });

  it('follows the share formulas over 30 seeded random entries, exits and rewards, the ratio never falling', async () => {
    const staking = await newStaking();
    const holders = [await holder(staking), await holder(staking), await holder(staking)];
    const random = new Prng(0x5a0ce);
    await enter(holders[0] as Wallet, staking, 1_000n * E6);
    for (let step = 0; step < 30; step++) {
      const wallet = holders[random.next() % holders.length] as Wallet;
      const account = wallet.account.address;
      const held = await balanceOf(devnet, sauce, staking);
      const supply = await supplyOf(staking);
      const shares = await balanceOf(devnet, staking, account);
      const sauceBefore = await balanceOf(devnet, sauce, account);
      const roll = random.next() % 3;
      if (roll === 0) {
        const amount = random.between(1n, 10_000n * E6);
        const expected = (amount * supply) / held;
        if (expected === 0n) continue;
        await enter(wallet, staking, amount);
        expect(await balanceOf(devnet, staking, account), `step ${step}`).toBe(shares + expected);
        // Only the shares' claim is pulled, rounded up: the change of `amount` stays with the staker.
        const paid = (expected * held + supply - 1n) / supply;
        expect(paid <= amount && amount - paid < held / supply + 1n).toBe(true);
        expect(await balanceOf(devnet, sauce, account)).toBe(sauceBefore - paid);
      } else if (roll === 1 && shares > 0n) {
        const burnt = random.between(1n, shares);
        const expected = (burnt * held) / supply;
        if (expected === 0n) continue;
        await leave(wallet, staking, burnt);
        expect(await balanceOf(devnet, sauce, account), `step ${step}`).toBe(sauceBefore + expected);
        expect(await balanceOf(devnet, staking, account)).toBe(shares - burnt);
      } else {
        await reward(staking, random.between(0n, 50n * E6));
      }
      // SAUCE per share (held / supply) never falls: heldAfter / supplyAfter >= held / supply.
      const heldAfter = await balanceOf(devnet, sauce, staking);
      const supplyAfter = await supplyOf(staking);
      if (supplyAfter > 0n) expect(heldAfter * supply >= held * supplyAfter, `step ${step}`).toBe(true);
    }
    // The contract stays solvent: the last one out takes exactly what is left.
    for (const wallet of holders) {
      const shares = await balanceOf(devnet, staking, wallet.account.address);
      if (shares > 0n) await leave(wallet, staking, shares);
    }
    expect(await supplyOf(staking)).toBe(0n);
    expect(await balanceOf(devnet, sauce, staking)).toBe(0n);
  });
});
