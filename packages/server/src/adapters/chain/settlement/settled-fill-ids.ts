import { encodeAbiParameters, type Hex, keccak256 } from 'viem';
import type { ChainContext } from '../chain-context.js';

/**
 * Storage slot of the reactor's `mapping(uint256 => uint256) settledFillWords` (one bit per
 * settled fill id: word `id >> 8`, bit `id & 0xff`). It follows owner (0), operator (1),
 * feeRecipient (2), pairFactory (3), pendingChange (4), progress (5), cancelled (6),
 * swapperFloor (7), operatorFloor (8) and orderFlags (9) in
 * packages/contracts/src/PartialFillLimitOrderReactor.sol; immutables and the transient lock take
 * no slot. settlement.test.ts sets a bit through it and checks that the reactor reads it back.
 */
export const SETTLED_FILL_WORDS_SLOT = 10n;

/** Fill ids per word of `settledFillWords`. */
const IDS_PER_WORD = 256n;

/**
 * Consecutive words without a settled id (1,024 fill ids) after which nothing higher is looked
 * for. Fill ids are trade ids, handed out in order and sent in order: above the highest settled
 * one, only fills refused by the reactor or never sent leave holes, and a run of over a thousand
 * of them followed by settled fills does not happen short of a long outage of settlement. Each
 * word is one `eth_getStorageAt`, so a start on a chain without such fills costs this many reads.
 */
export const EMPTY_WORDS_TO_STOP = 4;

const ALL_BITS = (1n << 256n) - 1n;

/** The storage slot that holds the bits of fill ids `word * 256` to `word * 256 + 255`. */
export function settledFillWordSlot(word: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [word, SETTLED_FILL_WORDS_SLOT]));
}

/**
 * The highest fill id above `above` that the reactor has settled, or null when it has settled none
 * (up to a run of EMPTY_WORDS_TO_STOP empty words). The reactor's own state is read, not its
 * events: a chain whose state outlived its blocks is read right too.
 */
export async function highestSettledFillAbove(
  chain: Pick<ChainContext, 'public' | 'reactor'>,
  above: number,
): Promise<number | null> {
  const first = BigInt(above) + 1n;
  let word = first / IDS_PER_WORD;
  // In the first word, the ids up to `above` are not looked at.
  let mask = ALL_BITS ^ ((1n << (first % IDS_PER_WORD)) - 1n);
  let highest: bigint | null = null;
  for (let empty = 0; empty < EMPTY_WORDS_TO_STOP; word++) {
    const value = await chain.public.getStorageAt({ address: chain.reactor, slot: settledFillWordSlot(word) });
    const bits = BigInt(value ?? '0x0') & mask;
    mask = ALL_BITS;
    if (bits === 0n) {
      empty++;
      continue;
    }
    empty = 0;
    highest = word * IDS_PER_WORD + BigInt(bits.toString(2).length - 1);
  }
  return highest === null ? null : Number(highest);
}
