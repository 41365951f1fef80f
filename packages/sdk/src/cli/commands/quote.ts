import { formatDecimal } from '@dex/core';
import { getExactInputQuote } from '../../actions/get-exact-input-quote.js';
import { getExactOutputQuote } from '../../actions/get-exact-output-quote.js';
import type { ExactInputQuote, ExactOutputQuote } from '../../types.js';
import { amountOption, UsageError, wholeNumber } from '../arguments.js';
import { findBook, poolOptIn, tokenAmount, tokensOf } from '../book-lookup.js';
import type { Command } from '../command.js';
import { fields, pairOf, yesNo } from '../output.js';

/** `50` basis points as `0.5 %`. */
const percentOfBps = (bps: number) => `${formatDecimal(BigInt(bps), 2)} %`;

export const quoteCommand: Command = {
  name: 'quote',
  synopsis: '<book> --sell AMOUNT | --buy AMOUNT [--amm]',
  summary: 'what a market order would trade now, amounts of the base token in display units',
  help: [
    '  --sell AMOUNT   sell exactly AMOUNT of the base token: the quote it fetches (exact input)',
    '  --buy AMOUNT    buy AMOUNT of the base token: the quote it costs (exact output)',
    "  --amm           include the book's pool, as an order placed with --amm trades; without it the",
    '                  book alone, as a plain order trades (books with isAMMEnabled 1)',
    '  --json          the quote as the API gives it, amounts in raw units',
  ].join('\n'),
  options: ['sell', 'buy', 'amm'],
  arguments: [1, 1],
  async run(context, [bookArgument = '']) {
    const { values } = context;
    if ((values.sell === undefined) === (values.buy === undefined)) throw new UsageError('Give one of --sell or --buy');
    const orderbookId = wholeNumber(bookArgument, 'The book id');
    const client = context.publicClient();
    const book = await findBook(client, orderbookId);
    const isAMMEnabled = poolOptIn(book, values.amm);
    const { base, quote } = tokensOf(book);
    const title = `on ${pairOf(book)} (book ${orderbookId})`;
    const [answer, headline, lines] = values.sell !== undefined ? await sell() : await buy();
    // On a book with a pool, say whether the quote counts it: it matches an order placed the same way.
    const pool: [string, string][] =
      book.isAMMEnabled === 1 ? [['pool', isAMMEnabled ? 'included (--amm)' : 'not included (--amm includes it)']] : [];
    const summary = fields([...lines, ['fillable', yesNo(answer.fillable)], ...pool]);
    context.print(answer, `${headline} ${base.symbol} ${title}\n${summary}`);

    async function sell(): Promise<[ExactInputQuote, string, [string, string][]]> {
      const answer = await getExactInputQuote(client, {
        orderbookId,
        inputToken: base.address,
        inputAmount: amountOption(values, 'sell', base.decimals),
        isAMMEnabled,
      });
      const bound = `expected less ${percentOfBps(answer.slippageBps)}`;
      return [
        answer,
        `sell ${values.sell}`,
        [
          ['submit', `${tokenAmount(answer.snappedInputAmount, base)}  (on the size grid)`],
          ['absorbed', tokenAmount(answer.consumedInputAmount, base)],
          ['expected', tokenAmount(answer.expectedOutputAmount, quote)],
          ['suggested min', `${tokenAmount(answer.suggestedOutputAmount, quote)}  (${bound})`],
        ],
      ];
    }

    async function buy(): Promise<[ExactOutputQuote, string, [string, string][]]> {
      const answer = await getExactOutputQuote(client, {
        orderbookId,
        outputToken: base.address,
        outputAmount: amountOption(values, 'buy', base.decimals),
        isAMMEnabled,
      });
      const bound = `expected plus ${percentOfBps(answer.slippageBps)}`;
      return [
        answer,
        `buy ${values.buy}`,
        [
          ['receive', `${tokenAmount(answer.snappedOutputAmount, base)}  (on the size grid)`],
          ['expected cost', tokenAmount(answer.expectedInputAmount, quote)],
          ['suggested max', `${tokenAmount(answer.suggestedInputAmount, quote)}  (${bound})`],
        ],
      ];
    }
    return 0;
  },
};
