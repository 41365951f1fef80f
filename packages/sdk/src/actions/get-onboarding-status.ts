import { type AccountRequestErrorType, type Client, request } from '../client.js';
import type { InvalidParameterError } from '../errors.js';
import type { OnboardingStatus } from '../order-types.js';
import { type OrderbookId, orderbookIdParameter } from '../utils/parameters.js';

export interface GetOnboardingStatusParameters {
  readonly orderbookId: OrderbookId;
}

export type GetOnboardingStatusReturnType = OnboardingStatus;

export type GetOnboardingStatusErrorType = InvalidParameterError | AccountRequestErrorType;

/**
 * Whether the account can trade a book (`GET /onboarding/:orderbookId/status`): the steps done and
 * left, such as the reactor's allowance of each token.
 */
export async function getOnboardingStatus(
  client: Client,
  parameters: GetOnboardingStatusParameters,
): Promise<GetOnboardingStatusReturnType> {
  return request<GetOnboardingStatusReturnType>(client, {
    path: ['onboarding', orderbookIdParameter(parameters.orderbookId), 'status'],
    access: 'account',
  });
}
