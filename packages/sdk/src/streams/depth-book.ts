import { DepthBook as ProtocolDepthBook } from '@dex/protocol';
import { streamError } from './decimal-key.js';

export type { OrderBookView } from '@dex/protocol';

/**
 * The protocol's depth book, failing with the SDK's `StreamError` (`update-gap` or `malformed`)
 * like every other stream failure, so one `catch` serves them all.
 */
export class DepthBook extends ProtocolDepthBook {
  constructor(snapshot: ConstructorParameters<typeof ProtocolDepthBook>[0]) {
    super(snapshot, streamError);
  }
}
