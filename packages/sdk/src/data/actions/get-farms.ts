import { type DataClient, type DataRequestErrorType, type DataResult, mapItems } from '../data-client.js';
import { type FarmWire, farmOf } from '../normalise.js';
import type { Farm } from '../types.js';

export type GetFarmsReturnType = DataResult<Farm[]>;

export type GetFarmsErrorType = DataRequestErrorType;

/** Every liquidity-mining farm with its emissions per second (`GET /farms`). */
export function getFarms(client: DataClient): Promise<GetFarmsReturnType> {
  return client.get<FarmWire[]>({ path: ['farms'] }).then(mapItems(farmOf));
}
