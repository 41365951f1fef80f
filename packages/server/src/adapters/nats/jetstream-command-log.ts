import {
  DeliverPolicy,
  DiscardPolicy,
  type JsMsg,
  type NatsConnection,
  nanos,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from 'nats';
import type {
  Command,
  CommandFollowing,
  CommandHandler,
  CommandOutcome,
  CommandReader,
  CommandSender,
  LoggedCommand,
} from '../../ports/command-log.js';

export interface CommandLogNames {
  /** The stream holding every shard's commands. */
  readonly stream: string;
  /** Commands go on `<prefix>.cmd.<shard>`, answers on `<prefix>.answer.<id>`. */
  readonly subjectPrefix: string;
}

export interface CommandStreamLimits {
  /** An id appended again within this is not appended twice (JetStream's duplicate window). */
  readonly duplicateWindowMs: number;
  /** Commands older than this leave the stream: an engine stopped longer must start from a store that holds them. */
  readonly maxAgeMs: number;
}

export const DEFAULT_STREAM_LIMITS: CommandStreamLimits = { duplicateWindowMs: 120_000, maxAgeMs: 7 * 24 * 3_600_000 };

/** NATS subject tokens: no dots, wildcards or spaces. */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

const commandSubject = (names: CommandLogNames, shard: number) => `${names.subjectPrefix}.cmd.${shard}`;
const answerSubject = (names: CommandLogNames, id: string) => `${names.subjectPrefix}.answer.${id}`;

/** Creates the command stream, or brings an existing one to these limits. */
export async function ensureCommandStream(
  connection: NatsConnection,
  names: CommandLogNames,
  limits: CommandStreamLimits = DEFAULT_STREAM_LIMITS,
): Promise<void> {
  const manager = await connection.jetstreamManager();
  const config: Partial<StreamConfig> & { name: string } = {
    name: names.stream,
    subjects: [`${names.subjectPrefix}.cmd.*`],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    duplicate_window: nanos(limits.duplicateWindowMs),
    max_age: nanos(limits.maxAgeMs),
  };
  const exists = await manager.streams.info(names.stream).then(
    () => true,
    () => false,
  );
  if (exists) await manager.streams.update(names.stream, config);
  else await manager.streams.add(config);
}

function failure(error: unknown): CommandOutcome {
  return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
}

/** The gateway's side: appends with the id as `Nats-Msg-Id`, and waits for the answer on the id's subject. */
export class JetStreamCommandSender implements CommandSender {
  constructor(
    private readonly connection: NatsConnection,
    private readonly names: CommandLogNames,
  ) {}

  async send(command: Command, timeoutMs: number): Promise<CommandOutcome> {
    if (!ID_PATTERN.test(command.id)) return failure(new Error(`a command id must match ${ID_PATTERN}`));
    // Subscribed before the append: the engine's answer cannot come first.
    const answers = this.connection.subscribe(answerSubject(this.names, command.id), { max: 1, timeout: timeoutMs });
    try {
      await this.connection
        .jetstream()
        .publish(commandSubject(this.names, command.shard), command.body, { msgID: command.id, timeout: timeoutMs });
      for await (const message of answers) return { ok: true, answer: message.data };
      return failure(new Error('the answer subscription closed without an answer'));
    } catch (error) {
      return failure(error);
    } finally {
      answers.unsubscribe();
    }
  }
}

export interface ReaderOptions {
  /** Commands handed to the engine and not yet answered, at most. */
  readonly inFlight: number;
}

/** The engine's side: an ordered consumer of its shard's subject from the position after the stored one. */
export class JetStreamCommandReader implements CommandReader {
  constructor(
    private readonly connection: NatsConnection,
    private readonly names: CommandLogNames,
    private readonly options: ReaderOptions = { inFlight: 256 },
  ) {}

  async follow(shard: number, appliedSeq: bigint, handle: CommandHandler): Promise<CommandFollowing> {
    const consumer = await this.connection.jetstream().consumers.get(this.names.stream, {
      filterSubjects: commandSubject(this.names, shard),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: Number(appliedSeq + 1n),
    });
    const messages = await consumer.consume({ max_messages: this.options.inFlight });
    const answer = (command: LoggedCommand, body: Uint8Array) =>
      this.connection.publish(answerSubject(this.names, command.id), body);
    const ended = this.handOver(shard, messages, handle, answer);
    return {
      ended,
      stop: async () => {
        await messages.close();
        await ended.catch(() => {});
      },
    };
  }

  private async handOver(
    shard: number,
    messages: AsyncIterable<JsMsg> & { stop(): void },
    handle: CommandHandler,
    answer: (command: LoggedCommand, body: Uint8Array) => void,
  ): Promise<void> {
    const taken: Promise<void>[] = [];
    let failed: Error | undefined;
    for await (const message of messages) {
      if (failed !== undefined) break;
      const command: LoggedCommand = {
        shard,
        id: message.headers?.get('Nats-Msg-Id') ?? '',
        body: message.data,
        seq: BigInt(message.seq),
      };
      const done = handle(command).then(
        (body) => answer(command, body),
        (error: unknown) => {
          failed ??= error instanceof Error ? error : new Error(String(error));
          messages.stop();
        },
      );
      taken.push(done);
      if (taken.length >= this.options.inFlight) await taken.shift();
    }
    await Promise.all(taken);
    if (failed !== undefined) throw failed;
  }
}
