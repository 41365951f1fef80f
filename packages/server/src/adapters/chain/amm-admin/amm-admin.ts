import {
  type AmmContracts,
  AmmFactory,
  AmmPair,
  AmmRouter,
  type DevnetClients,
  type DevnetWallet,
  Farm,
  farmWriteGas,
  TestToken,
} from '@dex/contracts';
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  getAddress,
  type Hex,
  isAddressEqual,
  maxUint256,
  parseEventLogs,
  type TransactionReceipt,
} from 'viem';
import { poolIdOfPairIndex } from '../../../domain/amm/contract-ids.js';
import {
  type AmmAdmin,
  type AmmPool,
  AmmRefusal,
  type AmmSenderKind,
  type FarmPool,
  type FarmState,
  type LiquidityAdded,
  type LiquidityRequest,
} from '../../../ports/amm-admin.js';
import { ammRevertOf } from './amm-reverts.js';
import type { AmmSender } from './amm-senders.js';

type Reads = DevnetClients['public'];
/** How long an AMM transaction may wait for its block (the router checks it). */
const DEADLINE_SECONDS = 600n;

/**
 * The AMM worked as its administrator, its transactions sent by `sender`: on the devnet its issuer
 * (the farm's owner there, see openDevnetAmm), elsewhere the wallet of the owner's key. Every call
 * is simulated first, so a refusal comes back as the contract's error, and nothing is sent.
 */
export class ChainAmmAdmin implements AmmAdmin {
  constructor(
    private readonly reads: Reads,
    private readonly sending: AmmSender,
    readonly addresses: AmmContracts,
  ) {}

  get sender(): AmmSenderKind {
    return this.sending.kind;
  }

  async createPool(tokenA: string, tokenB: string): Promise<AmmPool> {
    const [a, b] = [getAddress(tokenA), getAddress(tokenB)];
    const { factory } = this.addresses;
    await this.sending.as(null, (wallet) =>
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
    const from = request.from === null ? null : getAddress(request.from);
    return this.sending.as(from, async (wallet): Promise<LiquidityAdded> => {
      const provider = wallet.account.address;
      if (from === null && this.sending.makeLiquidity !== null) {
        await this.sending.makeLiquidity(wallet, a, request.amountA);
        await this.sending.makeLiquidity(wallet, b, request.amountB);
      }
      for (const [token, amount] of [
        [a, request.amountA],
        [b, request.amountB],
      ] as const) {
        await this.approveRouter(wallet, token, amount);
      }
      const deadline = (await this.reads.getBlock()).timestamp + DEADLINE_SECONDS;
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
    });
  }

  async pools(): Promise<AmmPool[]> {
    const { factory } = this.addresses;
    const count = await this.reads.readContract({
      address: factory,
      abi: AmmFactory.abi,
      functionName: 'allPairsLength',
    });
    const indexes = Array.from({ length: Number(count) }, (_, index) => index);
    return Promise.all(
      indexes.map(async (index) => {
        const pair = await this.reads.readContract({
          address: factory,
          abi: AmmFactory.abi,
          functionName: 'allPairs',
          args: [BigInt(index)],
        });
        return this.poolAt(index, pair);
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
    const farm = this.farmAddress();
    await this.sending.as(null, async (wallet) =>
      this.mined('funding the farm', await wallet.sendTransaction({ to: farm, value: amount })),
    );
  }

  async farm(): Promise<FarmState> {
    const read = this.reads;
    const farm = this.farmAddress();
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
    const [lpToken, allocPoint, , , , totalStaked] = await this.reads.readContract({
      address: this.farmAddress(),
      abi: Farm.abi,
      functionName: 'poolInfo',
      args: [BigInt(pid)],
    });
    return { pid, lpToken: getAddress(lpToken), allocPoint, totalStaked };
  }

  private async poolOf(a: Address, b: Address): Promise<AmmPool> {
    const read = this.reads;
    const { factory } = this.addresses;
    const pair = await read.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'getPair', args: [a, b] });
    if (BigInt(pair) === 0n) throw new AmmRefusal(`no pool of ${a} and ${b}`);
    const count = await read.readContract({ address: factory, abi: AmmFactory.abi, functionName: 'allPairsLength' });
    // Pools are few: find the pair's index by looking.
    for (let index = Number(count) - 1; index >= 0; index--) {
      const at = await read.readContract({
        address: factory,
        abi: AmmFactory.abi,
        functionName: 'allPairs',
        args: [BigInt(index)],
      });
      if (at === pair) return this.poolAt(index, pair);
    }
    throw new Error(`the factory does not list its pair ${pair}`);
  }

  /** The pool of the factory's pair at `index`. */
  private async poolAt(index: number, pair: Address): Promise<AmmPool> {
    const read = this.reads;
    const [token0, token1, [reserve0, reserve1], lpSupply] = await Promise.all([
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token0' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'token1' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'getReserves' }),
      read.readContract({ address: pair, abi: AmmPair.abi, functionName: 'totalSupply' }),
    ]);
    return {
      id: poolIdOfPairIndex(index),
      pair: getAddress(pair),
      token0: getAddress(token0),
      token1: getAddress(token1),
      reserve0,
      reserve1,
      lpSupply,
    };
  }

  /** The farm, which a chain deployed without SAUCE does not have. */
  private farmAddress(): Address {
    if (this.addresses.farm === null) throw new AmmRefusal('this deployment has no farm: it was deployed without SAUCE');
    return this.addresses.farm;
  }

  /** Sends a call to the farm from the sender, which must be the farm's owner: checked before anything is sent. */
  private asFarmOwner<name extends ContractFunctionName<typeof Farm.abi, 'nonpayable'>>(
    what: string,
    functionName: name,
    args: ContractFunctionArgs<typeof Farm.abi, 'nonpayable', name>,
  ): Promise<TransactionReceipt> {
    const farm = this.farmAddress();
    return this.sending.as(null, async (wallet) => {
      const owner = await this.reads.readContract({ address: farm, abi: Farm.abi, functionName: 'owner' });
      if (!isAddressEqual(owner, wallet.account.address)) {
        throw new AmmRefusal(`${what}: ${wallet.account.address} is not the farm's owner (${owner} is), so nothing was sent`);
      }
      // Every farm pool may accrue between the estimate and the block (massUpdatePools).
      const pools = await this.reads.readContract({ address: farm, abi: Farm.abi, functionName: 'poolLength' });
      return this.write(what, wallet, { address: farm, abi: Farm.abi, functionName, args }, pools);
    });
  }

  private async approveRouter(wallet: DevnetWallet, token: Address, amount: bigint): Promise<void> {
    const { router } = this.addresses;
    const allowance = await this.reads.readContract({
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

  /**
   * Simulates the call first, so a refusal comes back as the contract's error (a transaction of an
   * impersonated account is not estimated before it is sent), then sends it, with room for the
   * `farmPools` farm pools it updates (see farmWriteGas), and waits for its block.
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
    farmPools = 0n,
  ): Promise<TransactionReceipt> {
    const call = { ...request, account: wallet.account } as unknown as Parameters<DevnetWallet['writeContract']>[0];
    try {
      await this.reads.simulateContract(call as Parameters<Reads['simulateContract']>[0]);
    } catch (error) {
      const revert = ammRevertOf(error);
      if (revert !== null) throw new AmmRefusal(`${what}: the chain refused it with ${revert}`);
      throw error;
    }
    const estimate = await this.reads.estimateContractGas(call as Parameters<Reads['estimateContractGas']>[0]);
    const gas = farmWriteGas(estimate, farmPools);
    return this.mined(what, await wallet.writeContract({ ...call, gas } as Parameters<DevnetWallet['writeContract']>[0]));
  }

  private async mined(what: string, hash: Hex): Promise<TransactionReceipt> {
    const receipt = await this.reads.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new AmmRefusal(`${what}: reverted (transaction ${hash})`);
    return receipt;
  }
}
