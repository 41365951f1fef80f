import type { OperatorIo } from './operator-io.js';
import type { Values } from './operator-options.js';

/** What a command gets from the command line besides the io. */
export interface CommandInput {
  readonly values: Values;
  /** The second word: `open` of `book open 1`. */
  readonly action: string;
  /** The word after it: a book or key id. */
  readonly argument: string | undefined;
  /** Every word after the action (`argument` is the first). */
  readonly operands: readonly string[];
  /** Writes `value` as one JSON line with --json, else `text`. */
  print(value: unknown, text: string): void;
}

/** What a command line writes to before any store is open: help, usage errors, and commands without a store. */
export type OperatorConsole = Pick<OperatorIo, 'out' | 'err'>;

interface CommandWords {
  /** The first word: `token`, `book`, ... */
  readonly group: string;
  /** The second words it answers to. */
  readonly actions: readonly string[];
  /** What follows `group actions` in the usage text, spacing and further lines as printed. */
  readonly synopsis: string;
}

/**
 * A command on the store: the store must exist (a missing one is refused unless --create), or
 * the command makes one (`made`: restore puts a backup in its place).
 */
export interface StoreCommand extends CommandWords {
  readonly store?: 'needed' | 'made';
  /** Returns the exit code: 0 done, 1 refused. */
  run(input: CommandInput, io: OperatorIo): Promise<number>;
}

/** A command that opens no store (chain deploy): it writes to the console only. */
export interface ConsoleCommand extends CommandWords {
  readonly store: 'none';
  run(input: CommandInput, terminal: OperatorConsole): Promise<number>;
}

/** One operator command, or several that share their usage line (`book open|close|halt|resume`). */
export type OperatorCommand = StoreCommand | ConsoleCommand;

/**
 * `<group> list`: every record, one line each, or as JSON what `view` shows of them (all of a
 * record unless told).
 */
export function listCommand<T>(
  group: string,
  list: (io: OperatorIo) => Promise<readonly T[]>,
  describe: (record: T) => string,
  view: (record: T) => unknown = (record) => record,
): StoreCommand {
  return {
    group,
    actions: ['list'],
    synopsis: '',
    async run({ print }, io) {
      const records = await list(io);
      print(records.map(view), records.map(describe).join('\n'));
      return 0;
    },
  };
}
