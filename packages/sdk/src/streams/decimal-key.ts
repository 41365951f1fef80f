import { decimalKey as protocolDecimalKey, type StreamFaultFactory } from '@dex/protocol';
import { StreamError } from '../errors.js';

export { decimalOfKey } from '@dex/protocol';

/** Stream failures the protocol's helpers find, as the SDK's `StreamError`. */
export const streamError: StreamFaultFactory = (failure, message, options) => new StreamError(failure, message, options);

/** The protocol's decimal key of a stream value, failing with a `StreamError`. */
export function decimalKey(text: string, what: string): bigint {
  return protocolDecimalKey(text, what, streamError);
}
