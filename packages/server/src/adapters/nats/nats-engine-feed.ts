import type { NatsConnection, Subscription } from 'nats';
import { decodeTagged, encodeTagged } from '../../domain/wire/tagged-json.js';
import type { BookSnapshot, EngineFeedPublisher, EngineFeedSubscriber, EnginePublication } from '../../ports/engine-feed.js';

/** Publications go on `<prefix>.events.<shard>`; snapshot requests on `<prefix>.books.<bookId>.snapshot`. */
const eventsSubject = (prefix: string, shard: number | '*') => `${prefix}.events.${shard}`;
const snapshotSubject = (prefix: string, bookId: number | '*') => `${prefix}.books.${bookId}.snapshot`;

/** Stops a subscription after what it took is handled. */
async function drained(subscription: Subscription): Promise<void> {
  await subscription.drain().catch(() => {});
}

/** The engine's side of the feed on core NATS (at most once; the gateways detect gaps). */
export class NatsEnginePublisher implements EngineFeedPublisher {
  constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
  ) {}

  publish(publication: EnginePublication): void {
    this.connection.publish(eventsSubject(this.prefix, publication.shard), encodeTagged(publication));
  }

  async serveSnapshots(snapshotOf: (bookId: number) => BookSnapshot | undefined): Promise<() => Promise<void>> {
    const subscription = this.connection.subscribe(snapshotSubject(this.prefix, '*'), {
      callback: (error, message) => {
        if (error !== null) return;
        const bookId = Number(message.subject.split('.').at(-2));
        const snapshot = Number.isSafeInteger(bookId) ? snapshotOf(bookId) : undefined;
        // Books of other engines are theirs to answer.
        if (snapshot !== undefined) message.respond(encodeTagged(snapshot));
      },
    });
    await this.connection.flush();
    return () => drained(subscription);
  }
}

/** The gateway's side of the feed on core NATS. */
export class NatsEngineSubscriber implements EngineFeedSubscriber {
  constructor(
    private readonly connection: NatsConnection,
    private readonly prefix: string,
  ) {}

  async subscribe(receive: (publication: EnginePublication) => void): Promise<() => Promise<void>> {
    const subscription = this.connection.subscribe(eventsSubject(this.prefix, '*'), {
      callback: (error, message) => {
        if (error === null) receive(decodeTagged(message.data) as EnginePublication);
      },
    });
    // Subscribed on the server before the caller reads its first snapshot.
    await this.connection.flush();
    return () => drained(subscription);
  }

  async snapshot(bookId: number, timeoutMs: number): Promise<BookSnapshot> {
    const answer = await this.connection.request(snapshotSubject(this.prefix, bookId), new Uint8Array(0), {
      timeout: timeoutMs,
    });
    return decodeTagged(answer.data) as BookSnapshot;
  }
}
