import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import { parseBookId } from '../../../domain/markets/market.js';
import type { FeeOverride } from '../../../domain/markets/market-records.js';
import { listCommand, type OperatorCommand } from '../operator-command.js';
import type { OperatorIo } from '../operator-io.js';
import { MAX_PIPS, makerFeePips, need, optional, UsageError, type Values, wholeNumber } from '../operator-options.js';
import { describeFees } from './fee-text.js';

/** The account and book a fee override is about: the account as the API names it, an existing book. */
async function feeTarget(values: Values, io: OperatorIo): Promise<{ account: string; bookId: number }> {
  const given = normaliseAccountId(need(values, 'account'));
  if (given === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
  // Kept under the name the account trades under: a secp256k1 ledger account's is its EVM address.
  const account = await io.fees.tradingName(given);
  const bookText = need(values, 'book');
  const books = await io.markets.books();
  const bookId = parseBookId(bookText);
  const book = books.find((candidate) => candidate.id === bookId);
  if (book === undefined) throw new UsageError(`--book: no book ${bookText}`);
  return { account, bookId: book.id };
}

function describeFee(fee: FeeOverride): string {
  return `${fee.account}\tbook ${fee.bookId}\t${describeFees(fee)}`;
}

export const feeSetCommand: OperatorCommand = {
  group: 'fee',
  actions: ['set'],
  synopsis: ` --account <0.0.X|0x...> --book ID --taker-fee-pips N --maker-fee-pips N [--cap-fraction-pips N]
                       fee rates of one account on one book, replacing the book's own
                       (a negative maker fee, --maker-fee-pips=-N, is a rebate: at most the cap's share of the taker's fee)`,
  async run({ values, print }, io) {
    const target = await feeTarget(values, io);
    const fee = await io.fees.set(target, {
      takerFeePips: wholeNumber(need(values, 'taker-fee-pips'), 'taker-fee-pips', MAX_PIPS),
      makerFeePips: makerFeePips(need(values, 'maker-fee-pips'), 'maker-fee-pips'),
      capFractionPips: wholeNumber(optional(values, 'cap-fraction-pips') ?? '0', 'cap-fraction-pips', MAX_PIPS),
    });
    print(fee, `set fees ${describeFee(fee)}`);
    return 0;
  },
};

export const feeClearCommand: OperatorCommand = {
  group: 'fee',
  actions: ['clear'],
  synopsis: ' --account <0.0.X|0x...> --book ID',
  async run({ values, print }, io) {
    const { account, bookId } = await feeTarget(values, io);
    const cleared = await io.fees.clear(account, bookId);
    print({ cleared }, cleared ? `cleared the fees of ${account} on book ${bookId}` : 'no such fee override');
    return cleared ? 0 : 1;
  },
};

export const feeListCommand = listCommand('fee', (io) => io.fees.list(), describeFee);
