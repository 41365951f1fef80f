import {
  type AmmDeployment,
  AmmFactory,
  AmmPair,
  AmmRouter,
  type DevnetClients,
  type DevnetWallet,
  Farm,
  farmWriteGas,
  SauceStaking,
  TestToken,
} from '@dex/contracts';
import { type DevnetHost, type KeyFileAccount, keyFileAccount } from '@dex/server';
import { type Address, getAddress, type Hex, maxUint256, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

type WriteRequest = Parameters<DevnetWallet['writeContract']>[0];

/** Its key file in DATA_DIR (mode 600, made once), beside the market maker's. */
export const LIQUIDITY_KEY_FILE = 'market-maker-liquidity.key';
/** How long a router call may wait for its block. */
const DEADLINE_SECONDS = 300n;

/**
 * The live devnet's liquidity provider: a secp256k1 devnet account that adds and removes pool
 * liquidity, stakes its LP tokens in the farm and swaps, each with its own signed transaction
 * straight to the router and the farm, as any liquidity provider on the chain does. Its calls are
 * made one at a time (its nonces come from the node).
 */
export class LiquidityAccount {
  private constructor(
    readonly record: KeyFileAccount['record'],
    private readonly clients: DevnetClients,
    private readonly wallet: DevnetWallet,
    readonly amm: AmmDeployment,
  ) {}

  /** The account of the key file in DATA_DIR, registered in the devnet registry on first use. */
  static async open(services: DevnetHost, clients: DevnetClients, amm: AmmDeployment): Promise<LiquidityAccount> {
    const { record, secretKey } = await keyFileAccount(services, LIQUIDITY_KEY_FILE, 'ECDSA_SECP256K1');
    const wallet = clients.wallet(privateKeyToAccount(`0x${secretKey}`));
    return new LiquidityAccount(record, clients, wallet, amm);
  }

  get address(): Address {
    return this.wallet.account.address;
  }

  balanceOf(token: Address): Promise<bigint> {
    return this.clients.public.readContract({
      address: token,
      abi: TestToken.abi,
      functionName: 'balanceOf',
      args: [this.address],
    });
  }

  /** The pair of two tokens, or null when the factory has none. */
  async pairOf(a: Address, b: Address): Promise<Address | null> {
    const { factory } = this.amm;
    const pair = await this.clients.public.readContract({
      address: factory,
      abi: AmmFactory.abi,
      functionName: 'getPair',
      args: [a, b],
    });
    return BigInt(pair) === 0n ? null : getAddress(pair);
  }

  /** A pair's reserves in the order (a, b). */
  async reserves(pair: Address, a: Address): Promise<[bigint, bigint]> {
    const reads = this.clients.public;
    const [token0, [reserve0, reserve1]] = await Promise.all([
      reads.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token0' }),
      reads.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' }),
    ]);
    return getAddress(token0) === a ? [reserve0, reserve1] : [reserve1, reserve0];
  }

  /** Lets `spender` move all of `token` the account holds, once. */
  async approve(token: Address, spender: Address): Promise<void> {
    const allowance = await this.clients.public.readContract({
      address: token,
      abi: TestToken.abi,
      functionName: 'allowance',
      args: [this.address, spender],
    });
    if (allowance >= maxUint256 / 2n) return;
    await this.mined(
      'approving',
      this.send({ address: token, abi: TestToken.abi, functionName: 'approve', args: [spender, maxUint256] }),
    );
  }

  /** Deposits at the pool's ratio (the first deposit creates the pair and sets it); returns the pair. */
  async addLiquidity(a: Address, b: Address, amountA: bigint, amountB: bigint): Promise<Address> {
    await this.mined(
      'adding liquidity',
      this.send({
        address: this.amm.router,
        abi: AmmRouter.abi,
        functionName: 'addLiquidity',
        args: [a, b, amountA, amountB, 0n, 0n, this.address, await this.deadline()],
      }),
    );
    const pair = await this.pairOf(a, b);
    if (pair === null) throw new Error(`adding liquidity to ${a}/${b} made no pair`);
    return pair;
  }

  async removeLiquidity(a: Address, b: Address, liquidity: bigint): Promise<void> {
    await this.mined(
      'removing liquidity',
      this.send({
        address: this.amm.router,
        abi: AmmRouter.abi,
        functionName: 'removeLiquidity',
        args: [a, b, liquidity, 0n, 0n, this.address, await this.deadline()],
      }),
    );
  }

  /** Sells exactly `amountIn` of `tokenIn` for at least `minOut` of `tokenOut`, straight on their pool. */
  async swap(tokenIn: Address, tokenOut: Address, amountIn: bigint, minOut: bigint): Promise<TransactionReceipt> {
    return this.mined(
      'swapping',
      this.send({
        address: this.amm.router,
        abi: AmmRouter.abi,
        functionName: 'swapExactTokensForTokens',
        args: [amountIn, minOut, [tokenIn, tokenOut], this.address, await this.deadline()],
      }),
    );
  }

  /** What `amountIn` of `tokenIn` buys of `tokenOut` now. */
  async quote(tokenIn: Address, tokenOut: Address, amountIn: bigint): Promise<bigint> {
    const amounts = await this.clients.public.readContract({
      address: this.amm.router,
      abi: AmmRouter.abi,
      functionName: 'getAmountsOut',
      args: [amountIn, [tokenIn, tokenOut]],
    });
    return amounts[amounts.length - 1] ?? 0n;
  }

  /** The farm pool staking `lpToken`, or null when the farm has none. */
  async farmPoolOf(lpToken: Address): Promise<bigint | null> {
    const reads = this.clients.public;
    const { farm } = this.amm;
    const count = await reads.readContract({ address: farm, abi: Farm.abi, functionName: 'poolLength' });
    for (let pid = 0n; pid < count; pid++) {
      const [lp] = await reads.readContract({ address: farm, abi: Farm.abi, functionName: 'poolInfo', args: [pid] });
      if (getAddress(lp) === lpToken) return pid;
    }
    return null;
  }

  /** LP units the account has staked in a farm pool. */
  async staked(pid: bigint): Promise<bigint> {
    const [amount] = await this.clients.public.readContract({
      address: this.amm.farm,
      abi: Farm.abi,
      functionName: 'userInfo',
      args: [pid, this.address],
    });
    return amount;
  }

  /** Stakes LP tokens in a farm pool (collecting what the stake earned so far). */
  async deposit(pid: bigint, amount: bigint): Promise<void> {
    await this.mined(
      'staking',
      this.send({ address: this.amm.farm, abi: Farm.abi, functionName: 'deposit', args: [pid, amount] }, 1n),
    );
  }

  async withdraw(pid: bigint, amount: bigint): Promise<void> {
    await this.mined(
      'unstaking',
      this.send({ address: this.amm.farm, abi: Farm.abi, functionName: 'withdraw', args: [pid, amount] }, 1n),
    );
  }

  /** The SAUCE token the staking contract takes. */
  async sauce(): Promise<Address> {
    return getAddress(
      await this.clients.public.readContract({ address: this.amm.staking, abi: SauceStaking.abi, functionName: 'sauce' }),
    );
  }

  /** xSAUCE the account holds. */
  xSauce(): Promise<bigint> {
    return this.clients.public.readContract({
      address: this.amm.staking,
      abi: SauceStaking.abi,
      functionName: 'balanceOf',
      args: [this.address],
    });
  }

  /** SAUCE the staking contract holds: every staker's stake and the rewards sent to it. */
  stakedSauceTotal(): Promise<bigint> {
    return this.clients.public.readContract({ address: this.amm.staking, abi: SauceStaking.abi, functionName: 'sauceHeld' });
  }

  /** Stakes SAUCE for xSAUCE at the contract's ratio. */
  async enterStaking(amount: bigint): Promise<void> {
    await this.approve(await this.sauce(), this.amm.staking);
    await this.mined(
      'staking SAUCE',
      this.send({ address: this.amm.staking, abi: SauceStaking.abi, functionName: 'enter', args: [amount] }),
    );
  }

  /** Sends SAUCE to the staking contract: a reward every xSAUCE shares in, so the ratio rises. */
  async rewardStakers(amount: bigint): Promise<void> {
    await this.mined(
      'rewarding SAUCE stakers',
      this.send({
        address: await this.sauce(),
        abi: TestToken.abi,
        functionName: 'transfer',
        args: [this.amm.staking, amount],
      }),
    );
  }

  /** Sends a call with a margin over the node's gas estimate, and room for the farm pools it updates (see farmWriteGas). */
  private async send(request: WriteRequest, farmPools = 0n): Promise<Hex> {
    const estimate = await this.clients.public.estimateContractGas({
      ...request,
      account: this.wallet.account,
    } as Parameters<DevnetClients['public']['estimateContractGas']>[0]);
    return this.wallet.writeContract({ ...request, gas: farmWriteGas(estimate, farmPools) } as WriteRequest);
  }

  /** The chain's time (anvil follows the clock) plus a margin: the router refuses a call past it. */
  private async deadline(): Promise<bigint> {
    return (await this.clients.public.getBlock()).timestamp + DEADLINE_SECONDS;
  }

  private async mined(what: string, sent: Promise<Hex>): Promise<TransactionReceipt> {
    const hash = await sent;
    const receipt = await this.clients.public.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (transaction ${hash})`);
    return receipt;
  }
}
