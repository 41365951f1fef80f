import { JsonObjectScan, type JsonPath, type ScalarWatch, scanFile, scanFileAsync } from './json-object-scan.js';

/** What a check of one of anvil's state dumps found. */
export interface DumpVerdict {
  /** It holds one whole JSON object: a crash while anvil wrote it leaves it cut short. */
  readonly whole: boolean;
  /** Why its state runs ahead of the history it saved; empty when it does not. */
  readonly ahead: readonly string[];
  /** Its best block number: the head of the chain a node loaded from it starts at. */
  readonly head: bigint | null;
}

/** The parts of a dump the check reads (anvil 1.x's field names). */
const WATCHED = [
  ['best_block_number'],
  ['block', 'number'],
  ['blocks', '*', 'header', 'number'],
  ['transactions', '*', 'block_number'],
  ['transactions', '*', 'info', 'from'],
  ['transactions', '*', 'info', 'nonce'],
  ['accounts', '*', 'nonce'],
];
/** Accounts named in a verdict; the rest are counted. */
const NAMED_ACCOUNTS = 3;

const highest = (top: bigint | null, value: bigint): bigint => (top === null || value > top ? value : top);

/**
 * Gathers what tells whether a dump's parts agree. Anvil writes its dump from parts read one after
 * the other, each under its own lock: the block environment, the best block number, the blocks, the
 * transactions, and last the accounts. Mining a block writes them in nearly the opposite order
 * (accounts, then the best number, blocks and transactions together, then the environment), so a
 * dump taken meanwhile holds later parts newer than earlier ones: accounts with the effects of a
 * block (a settled fill, a cancelled order) that neither the blocks nor the transactions hold. A
 * node loaded from it has those effects with no transaction to show for them.
 */
class DumpFacts implements ScalarWatch {
  readonly patterns = WATCHED;
  private best: bigint | null = null;
  private environment: bigint | null = null;
  private topBlock: bigint | null = null;
  private topTransactionBlock: bigint | null = null;
  private readonly nonces = new Map<string, bigint>();
  /** The highest nonce among each sender's saved transactions. */
  private readonly lastSent = new Map<string, bigint>();
  /** The sender and nonce of the transaction being read, which come in either order. */
  private transaction: { index: number; from?: string; nonce?: bigint } = { index: -1 };

  scalar(path: JsonPath, text: string): void {
    const value = (): bigint => BigInt(text);
    const [part, member, field, leaf] = path;
    if (part === 'best_block_number') this.best = value();
    else if (part === 'block') this.environment = value();
    else if (part === 'blocks') this.topBlock = highest(this.topBlock, value());
    else if (part === 'accounts') this.nonces.set(String(member).toLowerCase(), value());
    else if (field === 'block_number') this.topTransactionBlock = highest(this.topTransactionBlock, value());
    else this.sent(member as number, leaf === 'from' ? { from: text.toLowerCase() } : { nonce: value() });
  }

  private sent(index: number, part: { from?: string; nonce?: bigint }): void {
    if (this.transaction.index !== index) this.transaction = { index };
    Object.assign(this.transaction, part);
    const { from, nonce } = this.transaction;
    if (from === undefined || nonce === undefined) return;
    this.lastSent.set(from, highest(this.lastSent.get(from) ?? null, nonce));
  }

  get head(): bigint | null {
    return this.best;
  }

  /** Why the accounts or later parts run ahead of earlier ones. */
  ahead(): string[] {
    const reasons: string[] = [];
    const { best, environment, topBlock, topTransactionBlock } = this;
    if (environment !== null && best !== null && environment !== best)
      reasons.push(`its block environment is at block ${environment} but its best block is ${best}`);
    if (best !== null && topBlock !== null && topBlock !== best)
      reasons.push(`its best block is ${best} but its blocks go up to ${topBlock}`);
    if (topTransactionBlock !== null && (topBlock === null || topTransactionBlock > topBlock))
      reasons.push(`it holds a transaction of block ${topTransactionBlock} but its blocks go up to ${topBlock}`);
    const accounts = [...this.lastSent].flatMap(([sender, last]) => {
      const nonce = this.nonces.get(sender) ?? 0n;
      return nonce === last + 1n ? [] : [`${sender} is at nonce ${nonce} after saved transactions up to nonce ${last}`];
    });
    if (accounts.length > 0) {
      const more = accounts.length > NAMED_ACCOUNTS ? ` (and ${accounts.length - NAMED_ACCOUNTS} more)` : '';
      reasons.push(`account ${accounts.slice(0, NAMED_ACCOUNTS).join(', ')}${more}`);
    }
    return reasons;
  }
}

function verdict(read: boolean, scan: JsonObjectScan, facts: DumpFacts): DumpVerdict {
  const whole = read && scan.whole;
  return { whole, ahead: whole ? facts.ahead() : [], head: whole ? facts.head : null };
}

/**
 * Checks a state dump in one pass over its bytes, in chunks (a file past the longest string V8
 * holds is read like any other). Blocks while it reads: for a node about to start.
 */
export function checkDump(file: string): DumpVerdict {
  const facts = new DumpFacts();
  const scan = new JsonObjectScan(facts);
  return verdict(scanFile(file, scan), scan, facts);
}

/** `checkDump` read as a stream: the event loop goes on between chunks. */
export async function checkDumpAsync(file: string): Promise<DumpVerdict> {
  const facts = new DumpFacts();
  const scan = new JsonObjectScan(facts);
  return verdict(await scanFileAsync(file, scan), scan, facts);
}
