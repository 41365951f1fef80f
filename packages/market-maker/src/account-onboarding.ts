import { type Client, getOnboardingStatus, onboard, type SendOnboardingTransaction } from '@dex/sdk';
import type { BotLogger } from './logger.js';

/** One of the bot's accounts, with what sends its onboarding transactions (when the host gave a sender). */
export interface OnboardedAccount {
  readonly role: 'maker' | 'taker';
  readonly client: Client;
  readonly send: SendOnboardingTransaction | undefined;
}

/**
 * The bot's onboarding: the reactor pulls every fill through Permit2, so an account whose book
 * tokens are not approved to Permit2 and the reactor inside it has every order refused. Each
 * account is checked once per quoted book: its pending steps are sent with its sender, or reported
 * once without one. A failure is handed to `failed` and the pair is tried again on the next call.
 */
export class AccountOnboarding {
  /** `role:book` pairs done or reported. */
  private readonly checked = new Set<string>();

  constructor(
    private readonly accounts: readonly OnboardedAccount[],
    private readonly logger: BotLogger,
    private readonly failed: (error: unknown, message: string, fields: Record<string, unknown>) => void,
  ) {}

  /** Takes the pending steps of every account on the books not checked yet; `running` stops it between steps. */
  async check(books: Iterable<number>, running: () => boolean): Promise<void> {
    for (const bookId of books) {
      for (const account of this.accounts) {
        const key = `${account.role}:${bookId}`;
        if (!running() || this.checked.has(key)) continue;
        try {
          await this.checkOne(account, bookId);
          this.checked.add(key);
        } catch (error) {
          this.failed(error, 'onboarding an account on a book failed', {
            book: bookId,
            role: account.role,
            account: account.client.session.signer?.account,
          });
        }
      }
    }
  }

  private async checkOne({ client, send }: OnboardedAccount, bookId: number): Promise<void> {
    const fields = { book: bookId, account: client.session.signer?.account };
    if (send === undefined) {
      const { pendingSteps } = await getOnboardingStatus(client, { orderbookId: bookId });
      if (pendingSteps.length > 0) {
        this.logger.warn(
          { ...fields, pendingSteps },
          'market maker: an account is not onboarded on a book and the bot has no sender for it; its orders will be refused',
        );
      }
      return;
    }
    const { sent } = await onboard(client, { orderbookId: bookId, sendTransaction: send });
    if (sent.length > 0) {
      this.logger.info({ ...fields, steps: sent.map(({ step }) => step) }, 'market maker onboarded an account on a book');
    }
  }
}
