import type { OnboardingStatus, OnboardingStep, OrderbookItem } from '@dex/sdk';
import { baseName, quoteName } from '../markets/book-label.js';

/** One step of one token, as the page shows it. */
export interface ShownStep {
  readonly step: OnboardingStep;
  readonly label: string;
  readonly done: boolean;
}

/** A token of the book with its three steps, in the order they are taken. */
export interface TokenSteps {
  readonly role: 'base' | 'quote';
  readonly symbol: string;
  readonly steps: readonly ShownStep[];
}

/** The column titles, in step order: association, the token's approval of Permit2, Permit2's of the reactor. */
export const STEP_LABELS = ['Associated', 'Approved to Permit2', 'Reactor approved in Permit2'] as const;

const STEPS_OF: Record<TokenSteps['role'], readonly OnboardingStep[]> = {
  base: ['associateBaseToken', 'approveBaseTokenPermit2', 'approveBaseTokenReactor'],
  quote: ['associateQuoteToken', 'approveQuoteTokenPermit2', 'approveQuoteTokenReactor'],
};

/** The status of `GET /onboarding/:id/status` per token of the book, for the account panel's table. */
export function tokenSteps(status: Pick<OnboardingStatus, 'steps'>, book: OrderbookItem): TokenSteps[] {
  const row = (role: TokenSteps['role'], symbol: string): TokenSteps => ({
    role,
    symbol,
    steps: STEPS_OF[role].map((step, index) => ({ step, label: STEP_LABELS[index] ?? step, done: status.steps[step] })),
  });
  return [row('base', baseName(book)), row('quote', quoteName(book))];
}
