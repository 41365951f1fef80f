/**
 * The commands of the engines, one ordered log per shard of books: gateways append verified save
 * and cancel batches, the shard's engine applies them in order and answers each after its commit.
 * The engine keeps the position of the last command it applied in its store, in the transaction
 * that applied it, and follows the log from there after a restart: nothing is applied twice or
 * skipped.
 */

/** A command for the engine of `shard`; `id` is derived from its content, so an append retried with it is recognised. */
export interface Command {
  readonly shard: number;
  readonly id: string;
  readonly body: Uint8Array;
}

/** A command as the engine reads it: its position in the log (from 1, rising). */
export interface LoggedCommand extends Command {
  readonly seq: bigint;
}

/** The engine's answer to a command, or the error that it could not be sent or answered in time. */
export type CommandOutcome = { readonly ok: true; readonly answer: Uint8Array } | { readonly ok: false; readonly error: Error };

export interface CommandSender {
  /**
   * Appends the command to its shard's log and waits for the engine's answer, at most `timeoutMs`
   * from the call. A repeat of an id appended moments ago is not appended again; it waits for the
   * same answer.
   */
  send(command: Command, timeoutMs: number): Promise<CommandOutcome>;
}

/**
 * Applies one command; resolves with the answer once the command's effects (and its `seq`) are
 * committed. Called in log order, without waiting for earlier calls to resolve, so that the engine
 * may commit several commands together.
 */
export type CommandHandler = (command: LoggedCommand) => Promise<Uint8Array>;

export interface CommandFollowing {
  /**
   * Settles when the following ends: resolves after `stop()`; rejects with the error of a handler
   * that failed, after which nothing more is handed over (an engine never goes on past a command
   * it did not apply: it starts again from its stored position).
   */
  readonly ended: Promise<void>;
  /** Stops taking commands; resolves when the ones taken are answered. */
  stop(): Promise<void>;
}

export interface CommandReader {
  /** Hands the shard's commands after `appliedSeq` to `handle`, in order, until stopped. */
  follow(shard: number, appliedSeq: bigint, handle: CommandHandler): Promise<CommandFollowing>;
}
