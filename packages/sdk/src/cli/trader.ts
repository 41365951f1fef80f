import { ApiError, InvalidKeyError, InvalidParameterError, NotAuthenticatedError, SdkError } from '../errors.js';
import { type CommandLine, GLOBAL_OPTIONS, parseCommandLine, UsageError } from './arguments.js';
import { type Command, CommandError } from './command.js';
import { booksCommand } from './commands/books.js';
import { depthCommand } from './commands/depth.js';
import { onboardCommand } from './commands/onboard.js';
import { orderCancelAfterCommand, orderCancelCommand } from './commands/order-cancel.js';
import { orderEventsCommand } from './commands/order-events.js';
import { orderPlaceCommand } from './commands/order-place.js';
import { orderHistoryCommand, orderListCommand } from './commands/order-queries.js';
import { farmsCommand, poolsCommand } from './commands/pools.js';
import { quoteCommand } from './commands/quote.js';
import { loginCommand, logoutCommand, tokenCommand } from './commands/session.js';
import { tradesCommand } from './commands/trades.js';
import { CommandContext } from './context.js';
import type { TraderIo } from './trader-io.js';
import { commandUsage, groupUsage, PROGRAM, traderUsage, usageLine } from './usage.js';

export type { TraderIo } from './trader-io.js';

/** The exit code of a command stopped by SIGINT (128 + 2), as shells report it. */
const INTERRUPTED = 130;

const COMMANDS: readonly Command[] = [
  booksCommand,
  depthCommand,
  tradesCommand,
  quoteCommand,
  poolsCommand,
  farmsCommand,
  loginCommand,
  logoutCommand,
  tokenCommand,
  onboardCommand,
  orderPlaceCommand,
  orderCancelCommand,
  orderCancelAfterCommand,
  orderListCommand,
  orderHistoryCommand,
  orderEventsCommand,
];

/** The command the first words name, and how many words its name takes. */
function commandOf(positionals: readonly string[]): Command | undefined {
  const [first, second] = positionals;
  return COMMANDS.find((command) => command.name === `${first} ${second}`) ?? COMMANDS.find((command) => command.name === first);
}

/** The commands whose name starts with this word, when it names a group (`order`). */
function groupOf(word: string | undefined): Command[] {
  return COMMANDS.filter((command) => command.name.startsWith(`${word} `));
}

/** What the user gets for an error, and the exit code: 2 for usage, 1 for a refusal. */
function report(error: unknown, command: Command, io: TraderIo): number {
  // Ctrl-C aborted the requests under way: no message about them, the shell's code for SIGINT.
  if (io.signal?.aborted === true) return INTERRUPTED;
  if (error instanceof UsageError) {
    io.err(`${PROGRAM}: ${error.message}`);
    io.err(usageLine(command));
    return 2;
  }
  if (error instanceof InvalidParameterError || error instanceof InvalidKeyError) {
    io.err(`${PROGRAM}: ${error.message}`);
    return 2;
  }
  if (error instanceof NotAuthenticatedError) {
    io.err(`${PROGRAM}: ${command.name} needs a login: set DEX_PRIVATE_KEY or DEX_KEY_FILE, or run ${PROGRAM} login`);
    return 2;
  }
  if (error instanceof ApiError) {
    const item = error.index === undefined ? '' : `, item ${error.index}`;
    const code = error.code === undefined ? '' : ` ${error.code}`;
    io.err(`${PROGRAM}: ${error.message} (HTTP ${error.status}${code}${item}, request id ${error.requestId ?? 'none'})`);
    return 1;
  }
  if (error instanceof SdkError || error instanceof CommandError) {
    io.err(`${PROGRAM}: ${error.message}`);
    return 1;
  }
  throw error;
}

function checkOptions(command: Command, given: CommandLine['given']): void {
  const refused = given.find((name) => !GLOBAL_OPTIONS.includes(name) && !command.options.includes(name));
  if (refused !== undefined) throw new UsageError(`${command.name} does not take --${refused}`);
}

function checkArguments(command: Command, args: readonly string[]): void {
  const [min, max] = command.arguments;
  if (args.length < min) throw new UsageError(`${command.name} needs ${min === max ? min : `at least ${min}`} argument(s)`);
  if (args.length > max) {
    throw new UsageError(max === 0 ? `${command.name} takes no arguments` : `${command.name} takes at most ${max} argument(s)`);
  }
}

/**
 * Runs one trader command: `argv` without the program name. Writes through `io` only and returns
 * the exit code: 0 done, 1 the API or the network refused (the server's message, code and request
 * id on stderr), 2 a usage error, 130 interrupted (`io.signal` aborted) before it was done.
 */
export async function runTrader(argv: readonly string[], io: TraderIo): Promise<number> {
  let commandLine: CommandLine;
  try {
    commandLine = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`${PROGRAM}: ${error.message}`);
    io.err(`(${PROGRAM} --help)`);
    return 2;
  }
  const { values, positionals, given } = commandLine;
  const command = commandOf(positionals);
  const group = groupOf(positionals[0]);
  if (values.help === true) {
    io.out(
      command !== undefined
        ? commandUsage(command)
        : group.length > 0
          ? groupUsage(positionals[0] ?? '', group)
          : traderUsage(COMMANDS),
    );
    return 0;
  }
  if (command === undefined) {
    if (group.length === 0 ? positionals.length > 0 : positionals.length > 1) {
      io.err(`${PROGRAM}: unknown command "${positionals.slice(0, group.length > 0 ? 2 : 1).join(' ')}"`);
    }
    io.err(group.length > 0 ? groupUsage(positionals[0] ?? '', group) : traderUsage(COMMANDS));
    return 2;
  }
  try {
    const args = positionals.slice(command.name.split(' ').length);
    checkOptions(command, given);
    checkArguments(command, args);
    return await command.run(new CommandContext(io, values), args);
  } catch (error) {
    return report(error, command, io);
  }
}
