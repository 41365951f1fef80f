import {
  type AmmDeployment,
  AmmFactory,
  AmmPair,
  AmmRouter,
  associateToken,
  type DevnetClients,
  DevnetNode,
  type DevnetWallet,
  deployAmm,
  devnetClients,
  Farm,
  fund,
  installTestToken,
  SauceStaking,
  TestToken,
} from '@dex/contracts';
import { type Address, getAddress, type Hex, maxUint256 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { DEVNET_TOKENS } from '../application/markets/seed.js';

export type TokenSymbol = 'WHBAR' | 'USDC' | 'SAUCE';

const FOREVER = maxUint256;
/**
 * Gas of the farm's and the staking contract's writes: their cost depends on the time since the
 * last reward update, which differs between the estimate and the mined block (chain.at), so an
 * estimate can fall short.
 */
const REWARD_WRITE_GAS = 3_000_000n;

/**
 * An anvil devnet with the registry's devnet tokens at their ledger (long-zero) addresses and the
 * AMM deployed, the test operator minting every token (SAUCE too, so it can make the farm a
 * minter); for the AMM indexer's tests. Every write is waited for and must succeed.
 */
export class AmmChain {
  private constructor(
    readonly node: DevnetNode,
    readonly clients: DevnetClients,
    readonly operator: DevnetWallet,
    readonly amm: AmmDeployment,
    readonly tokens: Readonly<Record<TokenSymbol, Address>>,
  ) {}

  static async start(): Promise<AmmChain> {
    const node = await DevnetNode.start({ chainId: 298, stateFile: null });
    const clients = devnetClients(node.rpcUrl, 298);
    const operator = clients.wallet(privateKeyToAccount(generatePrivateKey()));
    await fund(clients, operator.account.address);
    const tokens = {} as Record<TokenSymbol, Address>;
    for (const token of DEVNET_TOKENS) {
      const address = getAddress(token.evmAddress);
      await installTestToken(clients, operator, { address, name: token.name, symbol: token.symbol, decimals: token.decimals });
      tokens[token.symbol as TokenSymbol] = address;
    }
    const amm = await deployAmm(clients, operator, { sauce: tokens.SAUCE, sauceMinter: operator });
    return new AmmChain(node, clients, operator, amm, tokens);
  }

  /** The chain as the indexer reads it. */
  get context() {
    return { public: this.clients.public, chainId: 298, indexFrom: 0n };
  }

  /** A funded wallet associated with and holding plenty of every token, approved to the router and the staking contract. */
  async wallet(): Promise<DevnetWallet> {
    const wallet = this.clients.wallet(privateKeyToAccount(generatePrivateKey()));
    await fund(this.clients, wallet.account.address);
    for (const token of Object.values(this.tokens)) {
      await associateToken(this.clients, wallet, token);
      await this.mined(
        this.operator.writeContract({
          address: token,
          abi: TestToken.abi,
          functionName: 'mint',
          args: [wallet.account.address, 10n ** 30n],
        }),
      );
      await this.mined(
        wallet.writeContract({ address: token, abi: TestToken.abi, functionName: 'approve', args: [this.amm.router, FOREVER] }),
      );
    }
    await this.mined(
      wallet.writeContract({
        address: this.tokens.SAUCE,
        abi: TestToken.abi,
        functionName: 'approve',
        args: [this.amm.staking, FOREVER],
      }),
    );
    return wallet;
  }

  /** Mines the next transaction in a block of this unix time (seconds). */
  async at(seconds: number): Promise<void> {
    await this.clients.test.setNextBlockTimestamp({ timestamp: BigInt(seconds) });
  }

  /** The latest block number, never a cached one. */
  head(): Promise<bigint> {
    return this.clients.public.getBlockNumber({ cacheTime: 0 });
  }

  async latestSeconds(): Promise<number> {
    return Number((await this.clients.public.getBlock()).timestamp);
  }

  async addLiquidity(wallet: DevnetWallet, a: TokenSymbol, b: TokenSymbol, amountA: bigint, amountB: bigint): Promise<void> {
    const args = [this.tokens[a], this.tokens[b], amountA, amountB, 0n, 0n, wallet.account.address, FOREVER] as const;
    await this.mined(wallet.writeContract({ address: this.amm.router, abi: AmmRouter.abi, functionName: 'addLiquidity', args }));
  }

  async removeLiquidity(wallet: DevnetWallet, a: TokenSymbol, b: TokenSymbol, liquidity: bigint): Promise<void> {
    const pair = await this.pairOf(a, b);
    await this.mined(
      wallet.writeContract({ address: pair, abi: AmmPair.abi, functionName: 'approve', args: [this.amm.router, FOREVER] }),
    );
    const args = [this.tokens[a], this.tokens[b], liquidity, 0n, 0n, wallet.account.address, FOREVER] as const;
    await this.mined(
      wallet.writeContract({ address: this.amm.router, abi: AmmRouter.abi, functionName: 'removeLiquidity', args }),
    );
  }

  /** Sells exactly `amountIn` of `from` for `to`. */
  async swap(wallet: DevnetWallet, from: TokenSymbol, to: TokenSymbol, amountIn: bigint): Promise<void> {
    const args = [amountIn, 0n, [this.tokens[from], this.tokens[to]], wallet.account.address, FOREVER] as const;
    await this.mined(
      wallet.writeContract({ address: this.amm.router, abi: AmmRouter.abi, functionName: 'swapExactTokensForTokens', args }),
    );
  }

  pairOf(a: TokenSymbol, b: TokenSymbol): Promise<Address> {
    const args = [this.tokens[a], this.tokens[b]] as const;
    return this.clients.public.readContract({ address: this.amm.factory, abi: AmmFactory.abi, functionName: 'getPair', args });
  }

  /** Reserves (token0, token1) and LP supply as the pair holds them now. */
  async pairState(pair: Address): Promise<{ reserveA: bigint; reserveB: bigint; lpSupply: bigint }> {
    const [reserveA, reserveB] = await this.clients.public.readContract({
      address: pair,
      abi: AmmPair.abi,
      functionName: 'getReserves',
    });
    const lpSupply = await this.clients.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'totalSupply' });
    return { reserveA, reserveB, lpSupply };
  }

  lpBalance(pair: Address, owner: Address): Promise<bigint> {
    return this.clients.public.readContract({ address: pair, abi: AmmPair.abi, functionName: 'balanceOf', args: [owner] });
  }

  async addFarm(allocPoint: bigint, lpToken: Address): Promise<void> {
    await this.mined(
      this.operator.writeContract({
        address: this.amm.farm,
        abi: Farm.abi,
        functionName: 'add',
        args: [allocPoint, lpToken],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  async setAllocation(pid: bigint, allocPoint: bigint): Promise<void> {
    await this.mined(
      this.operator.writeContract({
        address: this.amm.farm,
        abi: Farm.abi,
        functionName: 'set',
        args: [pid, allocPoint],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  /** The farm's rates: SAUCE raw units and native wei per second. */
  async setEmissions(saucePerSecond: bigint, nativePerSecond: bigint): Promise<void> {
    const args = [saucePerSecond, nativePerSecond] as const;
    await this.mined(
      this.operator.writeContract({
        address: this.amm.farm,
        abi: Farm.abi,
        functionName: 'setEmissions',
        args,
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  /** Stakes LP tokens in a farm (in a block of `atSeconds` when given). */
  async deposit(wallet: DevnetWallet, pid: bigint, lpToken: Address, amount: bigint, atSeconds?: number): Promise<void> {
    await this.mined(
      wallet.writeContract({ address: lpToken, abi: AmmPair.abi, functionName: 'approve', args: [this.amm.farm, FOREVER] }),
    );
    if (atSeconds !== undefined) await this.at(atSeconds);
    await this.mined(
      wallet.writeContract({
        address: this.amm.farm,
        abi: Farm.abi,
        functionName: 'deposit',
        args: [pid, amount],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  async withdraw(wallet: DevnetWallet, pid: bigint, amount: bigint): Promise<void> {
    await this.mined(
      wallet.writeContract({
        address: this.amm.farm,
        abi: Farm.abi,
        functionName: 'withdraw',
        args: [pid, amount],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  async enterStaking(wallet: DevnetWallet, sauce: bigint): Promise<void> {
    await this.mined(
      wallet.writeContract({
        address: this.amm.staking,
        abi: SauceStaking.abi,
        functionName: 'enter',
        args: [sauce],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  async leaveStaking(wallet: DevnetWallet, shares: bigint): Promise<void> {
    await this.mined(
      wallet.writeContract({
        address: this.amm.staking,
        abi: SauceStaking.abi,
        functionName: 'leave',
        args: [shares],
        gas: REWARD_WRITE_GAS,
      }),
    );
  }

  /** A staking reward: SAUCE minted straight to the staking contract. */
  async rewardStaking(sauce: bigint): Promise<void> {
    const args = [this.amm.staking, sauce] as const;
    await this.mined(this.operator.writeContract({ address: this.tokens.SAUCE, abi: TestToken.abi, functionName: 'mint', args }));
  }

  stakingState(): Promise<[bigint, bigint]> {
    return Promise.all([
      this.clients.public.readContract({ address: this.amm.staking, abi: SauceStaking.abi, functionName: 'sauceHeld' }),
      this.clients.public.readContract({ address: this.amm.staking, abi: SauceStaking.abi, functionName: 'totalSupply' }),
    ]);
  }

  stop(): Promise<void> {
    return this.node.stop();
  }

  private async mined(sent: Promise<Hex>): Promise<void> {
    const receipt = await this.clients.public.waitForTransactionReceipt({ hash: await sent });
    if (receipt.status !== 'success') throw new Error(`transaction ${receipt.transactionHash} reverted`);
  }
}
