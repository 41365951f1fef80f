import { ApiError, InvalidParameterError, NetworkError, SdkError } from '@dex/sdk';

/** What the page says about a failure: a sentence for people and a code to quote or test for. */
export interface ErrorDescription {
  readonly message: string;
  /** The API's own code (`ORDERBOOK_NOT_FOUND`), else the HTTP status or the SDK error's name. */
  readonly code: string;
  /** The service's request id, when it sent one: what an operator needs to find the request. */
  readonly requestId?: string;
}

export function describeError(error: unknown): ErrorDescription {
  if (error instanceof ApiError) {
    return {
      message: error.message,
      code: error.code ?? `HTTP_${error.status}`,
      ...(error.requestId === undefined ? {} : { requestId: error.requestId }),
    };
  }
  if (error instanceof NetworkError) {
    return { message: `Cannot reach the service: ${error.message}`, code: error.name };
  }
  if (error instanceof InvalidParameterError) {
    return { message: `Invalid ${error.parameter}: ${error.message}`, code: error.name };
  }
  if (error instanceof SdkError || error instanceof Error) {
    return { message: error.message, code: error.name };
  }
  return { message: String(error), code: 'UNKNOWN_ERROR' };
}
