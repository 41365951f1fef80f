import type { MessageBody, WelcomeMessage } from './protocol.js';

/** What a client learns about its connection: the welcome's fields. */
export type ConnectionMetadata = Omit<WelcomeMessage, 'type' | 'seq'>;

/**
 * The metadata as headers of the 101 answer, which every client gets without a message of the
 * stream being spent on it. `X-Stream-Books: *` stands for every book.
 */
export function metadataHeaders(metadata: ConnectionMetadata): string[] {
  return [
    `X-Stream-Connection-Id: ${metadata.connectionId}`,
    `X-Stream-Name: ${metadata.stream}`,
    `X-Stream-Account: ${metadata.account}`,
    `X-Stream-Books: ${metadata.books === null ? '*' : metadata.books.join(',')}`,
    `X-Stream-Heartbeat-Ms: ${metadata.heartbeatMs}`,
    `X-Stream-Cancel-On-Disconnect: ${metadata.cancelOnDisconnect}`,
  ];
}

/** The metadata as the WELCOME message, for clients that ask for it (`welcome=true`). */
export function welcomeBody(metadata: ConnectionMetadata): MessageBody<WelcomeMessage> {
  return { type: 'WELCOME', ...metadata };
}
