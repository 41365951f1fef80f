import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CommandFollowing, LoggedCommand } from '../../ports/command-log.js';
import { NATS_AVAILABLE, useTestNats } from '../../test-support/nats.js';
import { ensureCommandStream, JetStreamCommandReader, JetStreamCommandSender } from './jetstream-command-log.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const bytes = (value: string) => new TextEncoder().encode(value);
const command = (shard: number, id: string, body = id) => ({ shard, id, body: bytes(body) });

describe.skipIf(!NATS_AVAILABLE)('the command log on NATS JetStream', () => {
  const nats = useTestNats();

  async function open() {
    await ensureCommandStream(nats.connection(), nats.names());
    return {
      sender: new JetStreamCommandSender(nats.connection(), nats.names()),
      reader: new JetStreamCommandReader(nats.connection(), nats.names()),
    };
  }

  /** An engine that answers `<body>@<seq>` for each command and keeps what it applied. */
  function echoEngine() {
    const applied: LoggedCommand[] = [];
    const handle = async (logged: LoggedCommand) => {
      applied.push(logged);
      return bytes(`${text(logged.body)}@${logged.seq}`);
    };
    return { applied, handle };
  }

  it('answers each command with what the engine answered after applying it, at its position', async () => {
    const { sender, reader } = await open();
    const engine = echoEngine();
    const following = await reader.follow(1, 0n, engine.handle);
    try {
      const first = await sender.send(command(1, 'a'), 5_000);
      const second = await sender.send(command(1, 'b'), 5_000);
      expect([first, second].map((outcome) => (outcome.ok ? text(outcome.answer) : outcome.error.message))).toEqual([
        'a@1',
        'b@2',
      ]);
      expect(engine.applied.map((logged) => [logged.id, logged.seq])).toEqual([
        ['a', 1n],
        ['b', 2n],
      ]);
    } finally {
      await following.stop();
    }
  });

  it('appends an id sent twice within the duplicate window once, and answers both senders alike', async () => {
    const { sender, reader } = await open();
    const engine = echoEngine();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The engine answers only once both sends are under way.
    const following = await reader.follow(1, 0n, async (logged) => {
      await held;
      return engine.handle(logged);
    });
    try {
      const both = Promise.all([sender.send(command(1, 'same', 'x'), 5_000), sender.send(command(1, 'same', 'x'), 5_000)]);
      setTimeout(release, 200);
      const outcomes = await both;
      expect(outcomes.map((outcome) => (outcome.ok ? text(outcome.answer) : outcome.error.message))).toEqual(['x@1', 'x@1']);
      expect(engine.applied).toHaveLength(1);
    } finally {
      await following.stop();
    }
  });

  it('keeps shards apart: an engine reads its own shard only', async () => {
    const { sender, reader } = await open();
    const one = echoEngine();
    const two = echoEngine();
    const followings = [await reader.follow(1, 0n, one.handle), await reader.follow(2, 0n, two.handle)];
    try {
      await Promise.all([
        sender.send(command(1, 'p'), 5_000),
        sender.send(command(2, 'q'), 5_000),
        sender.send(command(1, 'r'), 5_000),
      ]);
      expect(one.applied.map((logged) => logged.id).sort()).toEqual(['p', 'r']);
      expect(two.applied.map((logged) => logged.id)).toEqual(['q']);
    } finally {
      await Promise.all(followings.map((following) => following.stop()));
    }
  });

  it('hands an engine started again from its stored position every later command once, in order', async () => {
    const { sender, reader } = await open();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 12 }), async (count, stopAfter) => {
        // A fresh shard per run: positions are the stream's, shared by every shard.
        const shard = Math.floor(Math.random() * 1_000_000);
        const ids = Array.from({ length: count }, (_, index) => `c${shard}-${index}`);
        const appended = await Promise.all(ids.map((id) => sender.send(command(shard, id), 100).then(() => id)));
        expect(appended).toEqual(ids);
        // The first engine applies `stopAfter` commands, storing each position, then is stopped.
        let stored = 0n;
        const firstRun: string[] = [];
        let following: CommandFollowing | undefined;
        await new Promise<void>((resolve, reject) => {
          if (stopAfter === 0) resolve();
          void reader
            .follow(shard, 0n, async (logged) => {
              if (firstRun.length >= stopAfter) return bytes('');
              firstRun.push(logged.id);
              stored = logged.seq;
              if (firstRun.length === Math.min(stopAfter, count)) resolve();
              return bytes('');
            })
            .then((started) => {
              following = started;
            }, reject);
        });
        await following?.stop();
        const secondRun: string[] = [];
        const rest = count - firstRun.length;
        await new Promise<void>((resolve, reject) => {
          if (rest === 0) resolve();
          void reader
            .follow(shard, stored, async (logged) => {
              secondRun.push(logged.id);
              if (secondRun.length === rest) resolve();
              return bytes('');
            })
            .then((started) => {
              following = started;
            }, reject);
        });
        await following?.stop();
        expect([...firstRun, ...secondRun]).toEqual(ids);
      }),
      { numRuns: 15 },
    );
  }, 60_000);

  it('calls the engine for later commands before earlier answers are committed, and answers each its own', async () => {
    const { sender, reader } = await open();
    const resolvers: (() => void)[] = [];
    const following = await reader.follow(1, 0n, (logged) => {
      return new Promise((resolve) => {
        resolvers.push(() => resolve(bytes(logged.id)));
        // Commit all three together, in reverse order, once the third is taken.
        if (resolvers.length === 3) for (const commit of resolvers.reverse()) commit();
      });
    });
    try {
      const outcomes = await Promise.all(['x', 'y', 'z'].map((id) => sender.send(command(1, id), 5_000)));
      expect(outcomes.map((outcome) => (outcome.ok ? text(outcome.answer) : outcome.error.message))).toEqual(['x', 'y', 'z']);
    } finally {
      await following.stop();
    }
  });

  it('ends the following with the error of a failed command and hands over nothing after it', async () => {
    const { sender, reader } = await open();
    const seen: string[] = [];
    const following = await reader.follow(1, 0n, async (logged) => {
      seen.push(logged.id);
      if (logged.id === 'bad') throw new Error('the store refused the commit');
      return bytes('ok');
    });
    const sends = ['good', 'bad', 'after'].map((id) => sender.send(command(1, id), 1_500));
    await expect(following.ended).rejects.toThrow('the store refused the commit');
    const outcomes = await Promise.all(sends);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, false]);
    expect(seen).not.toContain('after');
  });

  it('answers a send that no engine takes with a failure once its time is up', async () => {
    const { sender } = await open();
    const started = Date.now();
    const outcome = await sender.send(command(9, 'unanswered'), 300);
    expect(outcome.ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses an id that is not one subject token', async () => {
    const { sender } = await open();
    const outcome = await sender.send(command(1, 'a.b'), 300);
    expect(outcome.ok).toBe(false);
  });
});
