import type { OptionName } from './arguments.js';
import type { CommandContext } from './context.js';

/** The API or the network refused, or there is nothing to act on: exit code 1. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
}

/** One command of the trader CLI: its usage, what it accepts, and what it does. */
export interface Command {
  /** `books`, `order place`... */
  readonly name: string;
  /** What follows the name in the usage line. */
  readonly synopsis: string;
  /** One line for the command list. */
  readonly summary: string;
  /** More lines for `<command> --help`: what the options mean. */
  readonly help?: string | undefined;
  /** The options it takes besides the global ones. */
  readonly options: readonly OptionName[];
  /** How many arguments may follow the name: at least, at most. */
  readonly arguments: readonly [min: number, max: number];
  /** Returns the exit code. */
  run(context: CommandContext, args: readonly string[]): Promise<number>;
}
