import { normaliseAccountId } from '../../../application/auth/trading-identity.js';
import type { TermsAcceptance } from '../../../domain/web-terms/terms.js';
import type { OperatorCommand } from '../operator-command.js';
import { optional, UsageError } from '../operator-options.js';

function describeAcceptance(item: TermsAcceptance): string {
  const from = item.clientAddress === null ? '' : `\tfrom ${item.clientAddress}`;
  return `${new Date(item.acceptedAt).toISOString()}\t${item.account}\t${item.document} ${item.version}\tsha256 ${item.textSha256}${from}`;
}

/** The web application's record of accepted texts, as kept: the export an operator hands on. */
export const termsListCommand: OperatorCommand = {
  group: 'terms',
  actions: ['list'],
  synopsis: ` [--account <0.0.X|0x...>]
                       who accepted which version of the web terms and risk notice, when and from where (oldest first)`,
  async run({ values, print }, io) {
    const given = optional(values, 'account');
    const account = given === null ? undefined : normaliseAccountId(given);
    if (given !== null && account === undefined) throw new UsageError('--account must be a ledger id (0.0.X) or a 0x address');
    const records = await io.terms.list(account);
    print(records, records.length === 0 ? 'no acceptances recorded' : records.map(describeAcceptance).join('\n'));
    return 0;
  },
};
