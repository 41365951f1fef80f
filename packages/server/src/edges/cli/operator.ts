import { parseArgs } from 'node:util';
import { DeploymentError } from '@dex/contracts';
import { CoreError } from '@dex/core';
import { InvalidAccountKeyError } from '../../domain/accounts/account-keys.js';
import { AmmRefusal } from '../../ports/amm-admin.js';
import { StoreConflictError } from '../../ports/store-errors.js';
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
import type { OperatorCommand, OperatorConsole } from './operator-command.js';
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
  'Commands refuse a DATA_DIR and NETWORK that name no store; add --create to make a new, empty one.',
].join('\n');

/** The exit code of a refusal, or the error again when it is no refusal but a fault. */
function refusal(error: unknown, io: OperatorConsole): number {
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

/**
 * Opens the store a command works on, and the io over it. `create`: a missing store is made (the
 * command line says --create, or the command makes a store); otherwise it is refused, with a
 * StoreFileRefusal that names it.
 */
export type OpenOperatorIo = (create: boolean) => Promise<OperatorIo>;

/**
 * Runs one operator command line; returns the process exit code (0 ok, 1 refused, 2 usage). The
 * store is opened only for a command that works on it: help and usage errors open none.
 */
export async function runOperatorCommandLine(
  argv: readonly string[],
  terminal: OperatorConsole,
  open: OpenOperatorIo,
): Promise<number> {
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, allowNegative: true, strict: true });
  } catch (error) {
    terminal.err(error instanceof Error ? error.message : String(error));
    terminal.err(OPERATOR_USAGE);
    return 2;
  }
  const { values, positionals } = parsed;
  const [area, action = '', ...operands] = positionals;
  const [argument] = operands;
  if (values.help || area === undefined) {
    terminal.out(OPERATOR_USAGE);
    return area === undefined && !values.help ? 2 : 0;
  }
  // Raw amounts (bigint) print as decimal strings, as on the wire.
  const json = (value: unknown) =>
    JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));
  const print = (value: unknown, text: string) => terminal.out(values.json ? json(value) : text);
  try {
    const command = COMMANDS.find((candidate) => candidate.group === area && candidate.actions.includes(action));
    if (command === undefined) throw new UsageError(`unknown command "${`${area} ${action}`.trim()}"`);
    const input = { values, action, argument, operands, print };
    if (command.store === 'none') return await command.run(input, terminal);
    return await command.run(input, await open(values.create === true || command.store === 'made'));
  } catch (error) {
    return refusal(error, terminal);
  }
}

/** Runs one operator command on an io at hand (its store open already). */
export function runOperator(argv: readonly string[], io: OperatorIo): Promise<number> {
  return runOperatorCommandLine(argv, io, async () => io);
}
