import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { rangeQuery, type TimeRange } from '../range-query.js';
import type { HbarPrice } from '../types.js';

export type GetHbarHistoricalPricesParameters = TimeRange;

export type GetHbarHistoricalPricesReturnType = DataResult<HbarPrice[]>;

/** Bad range, or more than 10,000 minutes: ApiError 400. */
export type GetHbarHistoricalPricesErrorType = InvalidParameterError | DataRequestErrorType;

/** The USD price of HBAR at the end of every minute of `from`..`to` (`GET /stats/hbarHistoricalPrices`). */
export function getHbarHistoricalPrices(
  client: DataClient,
  parameters: GetHbarHistoricalPricesParameters,
): Promise<GetHbarHistoricalPricesReturnType> {
  return client.get<HbarPrice[]>({ path: ['stats', 'hbarHistoricalPrices'], query: rangeQuery(parameters) });
}
