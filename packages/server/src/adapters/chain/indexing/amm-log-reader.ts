import { type AmmDeployment, AmmFactory, AmmPair, Farm, SauceStaking, TestToken } from '@dex/contracts';
import { type Address, getAbiItem, type Hash, type Log, parseEventLogs, zeroAddress } from 'viem';
import type { AmmEvent, ChainPosition } from '../../../domain/amm/amm-events.js';
import { byChainPosition } from '../../../domain/amm/amm-events.js';
import type { ChainContext } from '../chain-context.js';

const PAIR_CREATED = getAbiItem({ abi: AmmFactory.abi, name: 'PairCreated' });
const TRANSFER = getAbiItem({ abi: TestToken.abi, name: 'Transfer' });
/** Every event the pairs, the farm and the staking contract emit. */
const AMM_ABI = [...AmmPair.abi, ...Farm.abi, ...SauceStaking.abi].filter((item) => item.type === 'event');

/** The events of a run of blocks, in chain order, and the blocks that hold them (for the chain watch). */
export interface AmmLogs {
  readonly events: AmmEvent[];
  readonly blocks: readonly { number: bigint; hash: Hash }[];
}

type Reads = Pick<ChainContext, 'public'>;

/**
 * Reads the AMM's logs for a run of blocks: the factory's PairCreated first (so a pair created in
 * the run is read in the same run), then the pairs', the farm's and the staking contract's events,
 * and the SAUCE transfers into and out of the staking contract (rewards arrive as plain transfers).
 * Each event takes its block's timestamp.
 */
export class AmmLogReader {
  private sauce: Address | undefined;

  constructor(
    private readonly chain: Reads,
    private readonly amm: AmmDeployment,
  ) {}

  async read(from: bigint, to: bigint, pairs: readonly string[]): Promise<AmmLogs> {
    const range = { fromBlock: from, toBlock: to };
    const created = await this.chain.public.getLogs({ address: this.amm.factory, event: PAIR_CREATED, ...range });
    const fresh = created.flatMap((log) => (log.args.pair === undefined ? [] : [log.args.pair.toLowerCase()]));
    const contracts = [this.amm.farm, this.amm.staking, ...pairs, ...fresh] as Address[];
    const sauce = await this.sauceToken();
    const staking = this.amm.staking;
    const [own, sauceIn, sauceOut] = await Promise.all([
      // In slices: a node bounds the addresses of one query.
      Promise.all(chunks(contracts).map((address) => this.chain.public.getLogs({ address, ...range }))).then((parts) =>
        parts.flat(),
      ),
      this.chain.public.getLogs({ address: sauce, event: TRANSFER, args: { to: staking }, ...range }),
      this.chain.public.getLogs({ address: sauce, event: TRANSFER, args: { from: staking }, ...range }),
    ]);
    const logs: Log[] = [...created, ...own, ...sauceIn, ...sauceOut];
    const positions = await this.positions(logs);
    const events: AmmEvent[] = [];
    for (const log of created) {
      const { token0, token1, pair, index } = log.args;
      if (token0 === undefined || token1 === undefined || pair === undefined || index === undefined) continue;
      const at = positions(log);
      events.push({
        ...at,
        kind: 'created',
        pair: pair.toLowerCase(),
        token0: token0.toLowerCase(),
        token1: token1.toLowerCase(),
        index,
      });
    }
    events.push(...this.decodeOwn(own, positions));
    const stakingAddress = staking.toLowerCase();
    for (const log of [...sauceIn, ...sauceOut]) {
      const { from: sender, to: receiver, value } = log.args;
      if (value === undefined || sender?.toLowerCase() === receiver?.toLowerCase()) continue;
      const kind = receiver?.toLowerCase() === stakingAddress ? 'sauceIn' : 'sauceOut';
      events.push({ ...positions(log), kind, amount: value });
    }
    events.sort(byChainPosition);
    const blocks = new Map<bigint, Hash>();
    for (const log of logs) if (log.blockNumber !== null && log.blockHash !== null) blocks.set(log.blockNumber, log.blockHash);
    return { events, blocks: [...blocks].map(([number, hash]) => ({ number, hash })) };
  }

  private decodeOwn(logs: readonly Log[], positions: (log: Log) => ChainPosition): AmmEvent[] {
    const farm = this.amm.farm.toLowerCase();
    const staking = this.amm.staking.toLowerCase();
    const events: AmmEvent[] = [];
    for (const log of parseEventLogs({ abi: AMM_ABI, logs: logs as Log[] })) {
      const address = log.address.toLowerCase();
      const at = positions(log);
      if (address === farm) {
        const event = farmEvent(log);
        if (event !== undefined) events.push({ ...at, ...event });
      } else if (address === staking) {
        if (log.eventName === 'Enter') events.push({ ...at, kind: 'sharesMinted', amount: log.args.xsauce });
        if (log.eventName === 'Leave') events.push({ ...at, kind: 'sharesBurnt', amount: log.args.xsauce });
      } else {
        const event = pairEvent(address, log);
        if (event !== undefined) events.push({ ...at, ...event });
      }
    }
    return events;
  }

  /** The chain position of each log, with the timestamps of their blocks (read once per block). */
  private async positions(logs: readonly Log[]): Promise<(log: Log) => ChainPosition> {
    const numbers = [...new Set(logs.map((log) => log.blockNumber as bigint))];
    const blocks = await Promise.all(numbers.map((blockNumber) => this.chain.public.getBlock({ blockNumber })));
    const times = new Map(blocks.map((block) => [block.number as bigint, Number(block.timestamp) * 1_000]));
    return (log) => ({
      block: log.blockNumber as bigint,
      logIndex: log.logIndex as number,
      atMs: times.get(log.blockNumber as bigint) as number,
    });
  }

  private async sauceToken(): Promise<Address> {
    this.sauce ??= await this.chain.public.readContract({
      address: this.amm.staking,
      abi: SauceStaking.abi,
      functionName: 'sauce',
    });
    return this.sauce;
  }
}

/** Most contract addresses in one log query. */
const ADDRESSES_PER_QUERY = 200;

function chunks(addresses: readonly Address[]): Address[][] {
  const slices: Address[][] = [];
  for (let at = 0; at < addresses.length; at += ADDRESSES_PER_QUERY) slices.push(addresses.slice(at, at + ADDRESSES_PER_QUERY));
  return slices;
}

type Decoded = ReturnType<typeof parseEventLogs<typeof AMM_ABI>>[number];
type Without<T> = T extends unknown ? Omit<T, keyof ChainPosition> : never;

/** A pair's event that changes it; its LP Transfers count only as mints (from zero) and burns (by the pair, to zero). */
function pairEvent(pair: string, log: Decoded): Without<AmmEvent> | undefined {
  switch (log.eventName) {
    case 'Transfer':
      if (log.args.from === zeroAddress) return { kind: 'lpMinted', pair, amount: log.args.value };
      if (log.args.to === zeroAddress && log.args.from.toLowerCase() === pair)
        return { kind: 'lpBurnt', pair, amount: log.args.value };
      return undefined;
    case 'Sync':
      return { kind: 'sync', pair, reserve0: log.args.reserve0, reserve1: log.args.reserve1 };
    case 'Swap': {
      const { amount0In, amount1In, amount0Out, amount1Out } = log.args;
      return { kind: 'swap', pair, amount0In, amount1In, amount0Out, amount1Out };
    }
    default:
      return undefined;
  }
}

function farmEvent(log: Decoded): Without<AmmEvent> | undefined {
  switch (log.eventName) {
    case 'PoolAdded':
      return {
        kind: 'farmAdded',
        pid: Number(log.args.pid),
        lpToken: log.args.lpToken.toLowerCase(),
        allocPoint: log.args.allocPoint,
      };
    case 'PoolSet':
      return { kind: 'farmSet', pid: Number(log.args.pid), allocPoint: log.args.allocPoint };
    case 'EmissionsSet':
      return { kind: 'emissionsSet', saucePerSecond: log.args.saucePerSecond, nativePerSecond: log.args.nativePerSecond };
    case 'Deposit':
      return { kind: 'staked', pid: Number(log.args.pid), account: log.args.user.toLowerCase(), amount: log.args.amount };
    case 'Withdraw':
    case 'EmergencyWithdraw':
      return { kind: 'unstaked', pid: Number(log.args.pid), account: log.args.user.toLowerCase(), amount: log.args.amount };
    default:
      return undefined;
  }
}
