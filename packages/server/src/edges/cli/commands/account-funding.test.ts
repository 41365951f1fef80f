import { join } from 'node:path';
import {
  ACCOUNT_KEY_SERVICE_ADDRESS,
  DevnetAccountKeyService,
  PERMIT2_ADDRESS,
  PERMIT2_MAX_AMOUNT,
  PERMIT2_MAX_EXPIRATION,
  Permit2,
  TestToken,
} from '@dex/contracts';
import { type Address, getAddress, maxUint256 } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNativeCoin } from '../../../domain/markets/market.js';
import { type Harness, ManualClock, startHarness, tempDataDir } from '../../../test-support/harness.js';
import { operator } from '../../../test-support/operator-cli.js';

let h: Harness;
const keys = tempDataDir();

beforeAll(async () => {
  h = await startHarness({ CHAIN: 'devnet' }, { clock: new ManualClock(Date.now()) });
});

afterAll(async () => {
  await h?.close();
  keys.remove();
});

/** The operator CLI on the harness's store, funding through the devnet chain of the service on `dataDir`. */
const run = (dataDir: string, ...argv: string[]) => operator(h.services.store, h.clock, dataDir)(...argv);

function chain() {
  const { chain } = h.services;
  if (chain === null) throw new Error('settlement is off');
  return chain;
}

const read = (token: string, functionName: 'balanceOf' | 'allowance', owner: string) =>
  chain().public.readContract({
    address: getAddress(token),
    abi: TestToken.abi,
    functionName,
    args: functionName === 'balanceOf' ? [getAddress(owner)] : [getAddress(owner), PERMIT2_ADDRESS],
  } as Parameters<ReturnType<typeof chain>['public']['readContract']>[0]) as Promise<bigint>;

/** The reactor's allowance inside Permit2: amount and expiry. */
const permit2Allowance = (token: string, owner: string) =>
  chain().public.readContract({
    address: PERMIT2_ADDRESS,
    abi: Permit2.abi,
    functionName: 'allowance',
    args: [getAddress(owner), getAddress(token), chain().reactor],
  });

/** The registry's tokens that are ERC-20s on the chain: all but the native coin. */
const erc20s = async () => (await h.services.store.tokens.list()).filter((token) => !isNativeCoin(token));

describe('operator CLI on the devnet chain', () => {
  it('creates an Ed25519 account that is funded, approved and known to the 0x16a key registry', async () => {
    const created = await run(
      h.config.dataDir,
      'account',
      'create',
      '--key-type',
      'ed25519',
      '--key-file',
      join(keys.dir, 'a.key'),
      '--json',
    );
    expect(created.code).toBe(0);
    const account = JSON.parse(created.out) as { evmAddress: string; publicKey: string; funded: { amount: number } };
    expect(account.funded.amount).toBe(1_000);
    for (const token of await erc20s()) {
      expect(await read(token.evmAddress, 'balanceOf', account.evmAddress)).toBe(1_000n * 10n ** BigInt(token.decimals));
      // Onboarded as the live service asks: the token approves Permit2, Permit2 the reactor.
      expect(await read(token.evmAddress, 'allowance', account.evmAddress)).toBe(maxUint256);
      const [amount, expiration] = await permit2Allowance(token.evmAddress, account.evmAddress);
      expect([amount, expiration]).toEqual([PERMIT2_MAX_AMOUNT, PERMIT2_MAX_EXPIRATION]);
    }
    const key = await chain().public.readContract({
      address: ACCOUNT_KEY_SERVICE_ADDRESS,
      abi: DevnetAccountKeyService.abi,
      functionName: 'ed25519KeyOf',
      args: [getAddress(account.evmAddress) as Address],
    });
    expect(key).toBe(`0x${account.publicKey}`);
  });

  it('funds an existing 0x account with the amount asked for', async () => {
    const address = '0x00000000000000000000000000000000000b0b01';
    const funded = await run(h.config.dataDir, 'account', 'fund', '--account', address, '--amount', '5');
    expect(funded).toMatchObject({ code: 0, out: expect.stringContaining('funded 0x00000000000000000000000000000000000b0b01') });
    // The faucet associated the account with every token first, as the account, and says so.
    expect(funded.out).toContain('on its behalf (devnet impersonation)');
    const usdc = (await h.services.store.tokens.list()).find((token) => token.symbol === 'USDC');
    expect(await read(usdc?.evmAddress as string, 'balanceOf', address)).toBe(5_000_000n);
  });

  it('funds without onboarding with --no-approve: tokens and gas, no approval to Permit2 or inside it', async () => {
    const address = '0x00000000000000000000000000000000000b0b03';
    const funded = await run(h.config.dataDir, 'account', 'fund', '--account', address, '--amount', '5', '--no-approve');
    expect(funded).toMatchObject({ code: 0, out: expect.stringContaining('not approved: the account onboards itself') });
    for (const token of await erc20s()) {
      expect(await read(token.evmAddress, 'balanceOf', address)).toBe(5n * 10n ** BigInt(token.decimals));
      expect(await read(token.evmAddress, 'allowance', address)).toBe(0n);
      expect((await permit2Allowance(token.evmAddress, address))[0]).toBe(0n);
    }
  });

  it('leaves the associations to the account with --no-associate: only the tokens it associated itself are funded', async () => {
    const address = getAddress('0x00000000000000000000000000000000000b0b05');
    const tokens = await erc20s();
    const usdc = tokens.find((token) => token.symbol === 'USDC');
    if (usdc === undefined) throw new Error('no USDC');
    const devnet = chain().devnet;
    if (devnet === null) throw new Error('not a devnet');
    await devnet.test.setBalance({ address, value: 10n ** 18n });
    await devnet.test.impersonateAccount({ address });
    try {
      const hash = await devnet
        .wallet(address)
        .writeContract({ address: getAddress(usdc.evmAddress), abi: TestToken.abi, functionName: 'associate' });
      await chain().public.waitForTransactionReceipt({ hash });
    } finally {
      await devnet.test.stopImpersonatingAccount({ address });
    }
    const funded = await run(
      h.config.dataDir,
      'account',
      'fund',
      '--account',
      address,
      '--amount',
      '5',
      '--no-associate',
      '--json',
    );
    expect(funded.code).toBe(0);
    const others = tokens.filter((token) => token !== usdc).map((token) => token.symbol);
    // The native coin needs no association: it is funded whatever the account associated.
    expect(JSON.parse(funded.out)).toMatchObject({ tokens: ['HBAR', 'USDC'], associated: [], unassociated: others });
    for (const token of tokens) {
      const expected = token === usdc ? 5_000_000n : 0n;
      expect(await read(token.evmAddress, 'balanceOf', address)).toBe(expected);
    }
    const text = await run(h.config.dataDir, 'account', 'fund', '--account', address, '--amount', '1', '--no-associate');
    expect(text.out).toContain(`not funded with ${others.join(', ')}: not associated`);
  });

  it('gives a token added while the devnet runs its contract at once: accounts are funded with it without a restart', async () => {
    const added = await run(
      h.config.dataDir,
      'token',
      'add',
      '--id',
      '0.0.1104',
      '--symbol',
      'DEMO',
      '--name',
      'Demo',
      '--decimals',
      '8',
    );
    expect(added).toMatchObject({ code: 0, out: expect.stringContaining('installed on the running devnet chain') });
    const address = '0x00000000000000000000000000000000000b0b09';
    const funded = await run(h.config.dataDir, 'account', 'fund', '--account', address, '--amount', '2');
    expect(funded.code).toBe(0);
    expect(await read('0x0000000000000000000000000000000000000450', 'balanceOf', address)).toBe(200_000_000n);
  });

  it('creates an account without funding, and says so, when no devnet chain runs on the data folder', async () => {
    const elsewhere = tempDataDir();
    try {
      const created = await run(
        elsewhere.dir,
        'account',
        'create',
        '--key-type',
        'secp256k1',
        '--key-file',
        join(keys.dir, 'b.key'),
      );
      expect(created.code).toBe(0);
      expect(created.err).toContain('not funded: the devnet chain has not run on this DATA_DIR yet');
      const refused = await run(elsewhere.dir, 'account', 'fund', '--account', '0x00000000000000000000000000000000000b0b02');
      expect(refused.code).not.toBe(0);
      expect(refused.err).toContain('start the service');
    } finally {
      elsewhere.remove();
    }
  });
});
