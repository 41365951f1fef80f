import type { InvalidParameterError } from '../../errors.js';
import type { DataClient, DataRequestErrorType, DataResult } from '../data-client.js';
import { rangeQuery, type TimeRange } from '../range-query.js';
import type { PlatformField, PlatformInterval, PlatformPoint } from '../types.js';

export interface GetPlatformDataParameters extends TimeRange {
  readonly field: PlatformField;
  readonly interval: PlatformInterval;
}

export type GetPlatformDataReturnType = DataResult<PlatformPoint[]>;

export type GetPlatformDataErrorType = InvalidParameterError | DataRequestErrorType;

/**
 * Exchange-wide volume or liquidity per bucket of `interval` overlapping `from`..`to`; buckets
 * without trades are left out (`GET /stats/platformData`).
 */
export function getPlatformData(client: DataClient, parameters: GetPlatformDataParameters): Promise<GetPlatformDataReturnType> {
  return client.get<PlatformPoint[]>({
    path: ['stats', 'platformData'],
    query: {
      field: parameters.field,
      ...rangeQuery(parameters),
      interval: parameters.interval,
    },
  });
}
