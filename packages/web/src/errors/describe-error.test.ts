import { ApiError, InvalidParameterError, NetworkError } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';

describe('describeError', () => {
  it("gives the API's message and code, with the request id", () => {
    const error = new ApiError('Order book not found', {
      status: 404,
      code: 'ORDERBOOK_NOT_FOUND',
      requestId: 'req-1',
      url: 'http://x/depth/9',
    });
    expect(describeError(error)).toEqual({ message: 'Order book not found', code: 'ORDERBOOK_NOT_FOUND', requestId: 'req-1' });
  });

  it('falls back to the HTTP status when the API sent no code', () => {
    expect(describeError(new ApiError('Bad gateway', { status: 502, url: 'http://x/books' })).code).toBe('HTTP_502');
  });

  it('says the service cannot be reached on a network error', () => {
    const description = describeError(new NetworkError('http://127.0.0.1:9/books', new TypeError('fetch failed')));
    expect(description.message).toMatch(/^Cannot reach the service/);
    expect(description.code).toBe('NetworkError');
  });

  it("names the SDK's refusal and the parameter", () => {
    const description = describeError(new InvalidParameterError('amount', 'amount must be greater than zero'));
    expect(description).toEqual({ message: 'Invalid amount: amount must be greater than zero', code: 'InvalidParameterError' });
  });

  it('describes anything thrown', () => {
    expect(describeError(new TypeError('boom'))).toEqual({ message: 'boom', code: 'TypeError' });
    expect(describeError('odd')).toEqual({ message: 'odd', code: 'UNKNOWN_ERROR' });
  });
});
