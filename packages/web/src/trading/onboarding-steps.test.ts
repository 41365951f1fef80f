import { ONBOARDING_STEPS } from '@dex/protocol';
import type { OnboardingStatus, OrderbookItem } from '@dex/sdk';
import { describe, expect, it } from 'vitest';
import { STEP_LABELS, tokenSteps } from './onboarding-steps.js';

const book = {
  baseTokenSymbol: 'WHBAR',
  quoteTokenSymbol: null,
  baseTokenId: '0.0.1001',
  quoteTokenId: '0.0.1002',
} as OrderbookItem;

function status(pending: readonly string[]): Pick<OnboardingStatus, 'steps'> {
  return {
    steps: Object.fromEntries(ONBOARDING_STEPS.map((step) => [step, !pending.includes(step)])) as OnboardingStatus['steps'],
  };
}

describe('tokenSteps', () => {
  it('gives each token of the book its three steps in the order they are taken, done or not', () => {
    const rows = tokenSteps(status(['approveQuoteTokenPermit2', 'approveBaseTokenReactor', 'approveQuoteTokenReactor']), book);
    expect(rows).toEqual([
      {
        role: 'base',
        symbol: 'WHBAR',
        steps: [
          { step: 'associateBaseToken', label: STEP_LABELS[0], done: true },
          { step: 'approveBaseTokenPermit2', label: STEP_LABELS[1], done: true },
          { step: 'approveBaseTokenReactor', label: STEP_LABELS[2], done: false },
        ],
      },
      {
        // A token without a symbol goes by its ledger id.
        role: 'quote',
        symbol: '0.0.1002',
        steps: [
          { step: 'associateQuoteToken', label: STEP_LABELS[0], done: true },
          { step: 'approveQuoteTokenPermit2', label: STEP_LABELS[1], done: false },
          { step: 'approveQuoteTokenReactor', label: STEP_LABELS[2], done: false },
        ],
      },
    ]);
  });

  it('covers all six steps of the status exactly once', () => {
    const shown = tokenSteps(status([]), book).flatMap((row) => row.steps.map(({ step }) => step));
    expect([...shown].sort()).toEqual([...ONBOARDING_STEPS].sort());
  });
});
