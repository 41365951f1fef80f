import {
  type AmmDeployment,
  AmmFactory,
  AmmPair,
  AmmRouter,
  type DevnetClients,
  type DevnetWallet,
  Farm,
  gasWithMargin,
  TestToken,
} from '@dex/contracts';
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  getAddress,
  type Hex,
  maxUint256,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import {
  type AmmPool,
  type DevnetAmm,
  DevnetAmmRefusal,
  type FarmPool,
  type FarmState,
  type LiquidityAdded,
  type LiquidityRequest,
} from '../../ports/devnet-amm.js';
import { ammRevertOf } from './amm-reverts.js';
import { DEVNET_ISSUER_ADDRESS, type DevnetIssuer } from './devnet-issuer.js';

/** Gas money given to a provider that has less than this (1 coin, 18 decimals) before it adds liquidity. */
const GAS_MONEY_BELOW = 10n ** 18n;
/** How long an AMM transaction may wait for its block (the router checks it). */
const DEADLINE_SECONDS = 600n;

/**
 * The devnet's AMM worked as its administrator: the issuer owns the farm (see openDevnetAmm) and
 * sends the pool and farm transactions, through anvil's impersonation, so the service and the
 * operator CLI can both use it at once; a provider named by `from` is impersonated the same way.
 */
export class DevnetAmmAdmin implements DevnetAmm {
  constructor(
    private readonly devnet: DevnetClients,
    private readonly issuer: DevnetIssuer,
    readonly addresses: AmmDeployment,
  ) {}

  get nativeDecimals(): number {
    return this.devnet.chain.nativeCurrency.decimals;
  }

  async createPool(tokenA: string, tokenB: string): Promise<AmmPool> {
    const [a, b] = [getAddress(tokenA), getAddress(tokenB)];
    const { factory } = this.addresses;
    await this.issuer.asIssuer((wallet) =>
      this.write('creating the pool', wallet, {
        address: factory,
        abi: AmmFactory.abi,
        functionName: 'createPair',
        args: [a, b],
      }),
    );
    return this.poolOf(a, b);
  }

  async addLiquidity(request: LiquidityRequest): Promise<LiquidityAdded> {
    const [a, b] = [getAddress(request.tokenA), getAddress(request.tokenB)];
    const provide = async (wallet: DevnetWallet): Promise<LiquidityAdded> => {
      const provider = wallet.account.address;
      for (const [token, amount] of [
        [a, request.amountA],
        [b, request.amountB],
      ] as const) {
        await this.approveRouter(wallet, token, amount);
      }
      const deadline = (await this.devnet.public.getBlock()).timestamp + DEADLINE_SECONDS;
      const receipt = await this.write('adding liquidity', wallet, {
        address: this.addresses.router,
        abi: AmmRouter.abi,
        functionName: 'addLiquidity',
        args: [a, b, request.amountA, request.amountB, 0n, 0n, provider, deadline],
      });
      const pool = await this.poolOf(a, b);
      const [minted] = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Mint' });
      const liquidity = parseEventLogs({ abi: AmmPair.abi, logs: receipt.logs, eventName: 'Transfer' })
        .filter((log) => getAddress(log.address) === pool.pair && log.args.to === provider && BigInt(log.args.from) === 0n)
        .reduce((sum, log) => sum + log.args.value, 0n);
      const [amount0, amount1] = [minted?.args.amount0 ?? 0n, minted?.args.amount1 ?? 0n];
      const aFirst = getAddress(pool.token0) === a;
      return { pool, provider, amountA: aFirst ? amount0 : amount1, amountB: aFirst ? amount1 : amount0, liquidity };
    };
    if (request.from === null) {
      return this.issuer.asIssuer(async (wallet) => {
        await this.mintTo(wallet, a, request.amountA);
        await this.mintTo(wallet, b, request.amountB);
        return provide(wallet);
      });
    }
    return this.impersonated(getAddress(request.from), provide);
  }

  async pools(): Promise<AmmPool[]> {
    const { factory } = this.addresses;
    const count = await this.devnet.public.readContract({
      address: factory,
      abi: AmmFactory.abi,
      functionName: 'allPairsLength',
    });
    const ids = Array.from({ length: Number(count) }, (_, id) => id);
    return Promise.all(
      ids.map(async (id) => {
        const pair = await this.devnet.public.readContract({
          address: factory,
          abi: AmmFactory.abi,
          functionName: 'allPairs',
          args: [BigInt(id)],
        });
        return this.poolAt(id, pair);
      }),
    );
  }

  async addFarm(lpToken: string, allocPoint: bigint): Promise<FarmPool> {
    const receipt = await this.asFarmOwner('adding the farm pool', 'add', [allocPoint, getAddress(lpToken)]);
    const [added] = parseEventLogs({ abi: Farm.abi, logs: receipt.logs, eventName: 'PoolAdded' });
    if (added === undefined) throw new Error(`the farm added no pool (transaction ${receipt.transactionHash})`);
    return this.farmPool(Number(added.args.pid));
  }

  async setFarm(pid: number, allocPoint: bigint): Promise<FarmPool> {
    await this.asFarmOwner('setting the farm pool', 'set', [BigInt(pid), allocPoint]);
    return this.farmPool(pid);
  }

  async setEmissions(saucePerSecond: bigint, nativePerSecond: bigint): Promise<void> {
    await this.asFarmOwner('setting the emissions', 'setEmissions', [saucePerSecond, nativePerSecond]);
  }

  async fundFarm(amount: bigint): Promise<void> {
    await this.issuer.asIssuer(async (wallet) =>
      this.mined('funding the farm', await wallet.sendTransaction({ to: this.addresses.farm, value: amount })),
    );
  }

  async farm(): Promise<FarmState> {
    const read = this.devnet.public;
    const { farm } = this.addresses;
    const [sauce, saucePerSecond, nativePerSecond, totalAllocPoint, count, nativeBalance] = await Promise.all([
      read.readContract({ address: farm, abi: Farm.abi, functionName: 'sauce' }),
      read.readContract({ address: farm, abi: Farm.abi, functionName: 'saucePerSecond' }),
      read.readContract({ address: farm, abi: Farm.abi, functionName: 'nativePerSecond' }),
      read.readContract({ address: farm, abi: Farm.abi, functionName: 'totalAllocPoint' }),
      read.readContract({ address: farm, abi: Farm.abi, functionName: 'poolLength' }),
      read.getBalance({ address: farm }),
    ]);
    const pools = await Promise.all(Array.from({ length: Number(count) }, (_, pid) => this.farmPool(pid)));
    return { sauce: getAddress(sauce), saucePerSecond, nativePerSecond, totalAllocPoint, nativeBalance, pools };
  }

  private async farmPool(pid: number): Promise<FarmPool> {
    const [lpToken, allocPoint, , , , totalStaked] = await this.devnet.public.readContract({
      address: this.addresses.farm,
      abi: Farm.abi,
      functionName: 'poolInfo',
      args: [BigInt(pid)],
    });
    return { pid, lpToken: getAddress(lpToken), allocPoint, totalStaked };
  }

  private async poolOf(a: Address, b: Address): Promise<AmmPool> {
    const read = this.devnet.public;
    const { factory } = this.addresses;
    const pair = await read.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'getPair', args: [a, b] });
    if (BigInt(pair) === 0n) throw new DevnetAmmRefusal(`no pool of ${a} and ${b}`);
    const count = await read.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'allPairsLength' });
    // Pools are few on the devnet: find the pair's index by looking.
    for (let id = Number(count) - 1; id >= 0; id--) {
      const at = await read.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'allPairs', args: [BigInt(id)] });
      if (at === pair) return this.poolAt(id, pair);
    }
    throw new Error(`the factory does not list its pair ${pair}`);
  }

  private async poolAt(id: number, pair: Address): Promise<AmmPool> {
    const read = this.devnet.public;
    const [token0, token1, [reserve0, reserve1], lpSupply] = await Promise.all([
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token0' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token1' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'totalSupply' }),
    ]);
    return { id, pair: getAddress(pair), token0: getAddress(token0), token1: getAddress(token1), reserve0, reserve1, lpSupply };
  }

  /** Sends a call to the farm as its owner, the issuer. */
  private asFarmOwner<name extends ContractFunctionName<typeof Farm.abi, 'nonpayable'>>(
    what: string,
    functionName: name,
    args: ContractFunctionArgs<typeof Farm.abi, 'nonpayable', name>,
  ): Promise<TransactionReceipt> {
    const { farm } = this.addresses;
    return this.issuer.asIssuer((wallet) => this.write(what, wallet, { address: farm, abi: Farm.abi, functionName, args }));
  }

  private async mintTo(issuer: DevnetWallet, token: Address, amount: bigint): Promise<void> {
    await this.write('minting the tokens to provide', issuer, {
      address: token,
      abi: TestToken.abi,
      functionName: 'mint',
      args: [DEVNET_ISSUER_ADDRESS, amount],
    });
  }

  private async approveRouter(wallet: DevnetWallet, token: Address, amount: bigint): Promise<void> {
    const { router } = this.addresses;
    const allowance = await this.devnet.public.readContract({
      address: token,
      abi: TestToken.abi,
      functionName: 'allowance',
      args: [wallet.account.address, router],
    });
    if (allowance >= amount) return;
    await this.write('approving the router', wallet, {
      address: token,
      abi: TestToken.abi,
      functionName: 'approve',
      args: [router, maxUint256],
    });
  }

  /** Runs `work` as `account` through anvil's impersonation, with gas money if it has little. */
  private async impersonated<T>(account: Address, work: (wallet: DevnetWallet) => Promise<T>): Promise<T> {
    if ((await this.devnet.public.getBalance({ address: account })) < GAS_MONEY_BELOW) {
      await this.devnet.test.setBalance({ address: account, value: GAS_MONEY_BELOW * 1_000n });
    }
    await this.devnet.test.impersonateAccount({ address: account });
    try {
      return await work(this.devnet.wallet(account));
    } finally {
      await this.devnet.test.stopImpersonatingAccount({ address: account });
    }
  }

  /**
   * Simulates the call first, so a refusal comes back as the contract's error (a transaction of an
   * impersonated account is not estimated before it is sent), then sends it and waits for its block.
   */
  private async write<const abi extends Abi, name extends ContractFunctionName<abi, 'nonpayable' | 'payable'>>(
    what: string,
    wallet: DevnetWallet,
    request: {
      address: Address;
      abi: abi;
      functionName: name;
      args: ContractFunctionArgs<abi, 'nonpayable' | 'payable', name>;
    },
  ): Promise<TransactionReceipt> {
    const call = { ...request, account: wallet.account } as unknown as Parameters<DevnetWallet['writeContract']>[0];
    try {
      await this.devnet.public.simulateContract(call as Parameters<DevnetClients['public']['simulateContract']>[0]);
    } catch (error) {
      const revert = ammRevertOf(error);
      if (revert !== null) throw new DevnetAmmRefusal(`${what}: the chain refused it with ${revert}`);
      throw error;
    }
    const gas = gasWithMargin(
      await this.devnet.public.estimateContractGas(call as Parameters<DevnetClients['public']['estimateContractGas']>[0]),
    );
    return this.mined(what, await wallet.writeContract({ ...call, gas } as Parameters<DevnetWallet['writeContract']>[0]));
  }

  private async mined(what: string, hash: Hex): Promise<TransactionReceipt> {
    const receipt = await this.devnet.public.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new DevnetAmmRefusal(`${what}: reverted (transaction ${hash})`);
    return receipt;
  }
}
