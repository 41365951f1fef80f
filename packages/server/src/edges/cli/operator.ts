import { parseArgs } from 'node:util';
import { DeploymentError } from '@dex/contracts';
import { CoreError } from '@dex/core';
import { InvalidAccountKeyError } from '../../domain/accounts/account-keys.js';
import { AmmRefusal } from '../../ports/amm-admin.js';
import { StoreConflictError } from '../../ports/store/ports.js';
import { StoreFileRefusal } from '../../ports/store-files.js';
import { accountAddCommand, accountCreateCommand, accountListCommand } from './commands/account.js';
import { accountFundCommand } from './commands/account-funding.js';
import { apikeyChangeCommand, apikeyIssueCommand, apikeyListCommand, apikeyUsageCommand } from './commands/apikey.js';
import { bookAddCommand, bookChangeCommand, bookListCommand } from './commands/book.js';
import { chainDeployCommand } from './commands/chain.js';
import { devnetSeedCommand } from './commands/devnet.js';
import { farmAddCommand, farmEmissionsCommand, farmFundCommand, farmListCommand, farmSetCommand } from './commands/farm.js';
import { feeClearCommand, feeListCommand, feeSetCommand } from './commands/fee.js';
import { poolAddLiquidityCommand, poolCreateCommand, poolListCommand } from './commands/pool.js';
import { backupCommand, restoreCommand } from './commands/store-file.js';
import { termsListCommand } from './commands/terms.js';
import { tokenAddCommand, tokenListCommand, tokenUpdateCommand } from './commands/token.js';
import type { OperatorCommand } from './operator-command.js';
import type { OperatorIo } from './operator-io.js';
import { OPTIONS, UsageError, type Values } from './operator-options.js';

/** Every command, in the order of the usage text. */
const COMMANDS: readonly OperatorCommand[] = [
  tokenAddCommand,
  tokenUpdateCommand,
  tokenListCommand,
  bookAddCommand,
  bookListCommand,
  bookChangeCommand,
  accountAddCommand,
  accountCreateCommand,
  accountFundCommand,
  accountListCommand,
  feeSetCommand,
  feeClearCommand,
  feeListCommand,
  devnetSeedCommand,
  poolCreateCommand,
  poolAddLiquidityCommand,
  poolListCommand,
  farmAddCommand,
  farmSetCommand,
  farmEmissionsCommand,
  farmFundCommand,
  farmListCommand,
  apikeyIssueCommand,
  apikeyChangeCommand,
  apikeyListCommand,
  apikeyUsageCommand,
  termsListCommand,
  backupCommand,
  restoreCommand,
  chainDeployCommand,
];

export const OPERATOR_USAGE = [
  'Operator commands (the server picks up changes within a second):',
  '',
  ...COMMANDS.map((command) => `  ${command.group} ${command.actions.join('|')}${command.synopsis}`),
  '',
  'Add --json for machine-readable output.',
].join('\n');

/** The exit code of a refusal, or the error again when it is no refusal but a fault. */
function refusal(error: unknown, io: OperatorIo): number {
  if (error instanceof UsageError || error instanceof InvalidAccountKeyError) {
    io.err(error.message);
    return 2;
  }
  if (
    error instanceof StoreConflictError ||
    error instanceof StoreFileRefusal ||
    error instanceof CoreError ||
    error instanceof AmmRefusal ||
    error instanceof DeploymentError
  ) {
    io.err(error.message);
    return 1;
  }
  throw error;
}

/** Runs one operator command; returns the process exit code (0 ok, 1 refused, 2 usage). */
export async function runOperator(argv: readonly string[], io: OperatorIo): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, allowNegative: true, strict: true });
  } catch (error) {
    io.err(error instanceof Error ? error.message : String(error));
    io.err(OPERATOR_USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [area, action = '', ...operands] = positionals;
  const [argument] = operands;
  if (values.help || area === undefined) {
    io.out(OPERATOR_USAGE);
    return area === undefined && !values.help ? 2 : 0;
  }
  // Raw amounts (bigint) print as decimal strings, as on the wire.
  const json = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
  const print = (value: unknown, text: string) => io.out(values.json ? json(value) : text);
  try {
    const command = COMMANDS.find((candidate) => candidate.group === area && candidate.actions.includes(action));
    if (command === undefined) throw new UsageError(`unknown command "${`${area} ${action}`.trim()}"`);
    return await command.run({ values, action, argument, operands, print }, io);
  } catch (error) {
    return refusal(error, io);
  }
}
