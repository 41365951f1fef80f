import { type CancelAfterResult, isoTime, MAX_CANCEL_AFTER_SECONDS } from '@dex/protocol';
import { AppError } from '../../domain/errors.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Store } from '../../ports/store/ports.js';
import type { OrderDesk } from '../desk/order-desk.js';

/** The answer of `POST /cancel/after`, in the shape of Kraken's cancelAllOrdersAfter. */
export type CancelAfterAnswer = CancelAfterResult;

/**
 * The dead-man switch of `POST /cancel/after`: an account arms it with a timeout and re-arms it
 * while it is alive; if the timeout passes first, every open order of the account is cancelled as
 * `POST /cancel/all` cancels them, with a nonce floor one above the highest nonce the account was
 * ever issued, so that orders built but not yet saved are void too. One switch per account;
 * switches are stored, so a restart keeps them, and one whose time passed meanwhile fires at the
 * first sweep. A switch fires at its time even if a re-arm arrives late: that re-arm arms anew.
 */
export class CancelAfterSwitches {
  /** Trigger time (unix ms) of each armed account. */
  private readonly armed = new Map<string, number>();
  /** Sweeps run one after another, so a switch fires once. */
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: Store,
    private readonly desk: Pick<OrderDesk, 'cancelBelowFloor'>,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Loads the stored switches; call {@link fireDue} to fire those whose time has passed. */
  static async open(
    store: Store,
    desk: Pick<OrderDesk, 'cancelBelowFloor'>,
    clock: Clock,
    logger: Logger,
  ): Promise<CancelAfterSwitches> {
    const switches = new CancelAfterSwitches(store, desk, clock, logger);
    await switches.reload();
    return switches;
  }

  /** Reads the stored switches again: in a cluster the gateways arm them, and one engine fires them. */
  async reload(): Promise<void> {
    const stored = await this.store.cancelAfter.armed();
    this.armed.clear();
    for (const { account, triggerAt } of stored) this.armed.set(account, triggerAt);
  }

  /** Arms the account's switch to fire `timeoutSeconds` from now, replacing its last one; 0 disarms it. */
  async arm(account: string, timeoutSeconds: number): Promise<CancelAfterAnswer> {
    if (!Number.isSafeInteger(timeoutSeconds) || timeoutSeconds < 0 || timeoutSeconds > MAX_CANCEL_AFTER_SECONDS) {
      throw new AppError('VALIDATION_FAILED', `timeoutSeconds must be a whole number from 0 to ${MAX_CANCEL_AFTER_SECONDS}`);
    }
    const now = this.clock.now();
    const current = this.armed.get(account);
    if (current !== undefined && current <= now) await this.fireDue();
    if (timeoutSeconds === 0) {
      this.armed.delete(account);
      await this.store.cancelAfter.disarm(account);
      return { timeoutSeconds, currentTime: isoTime(now), triggerTime: null };
    }
    const triggerAt = now + timeoutSeconds * 1000;
    this.armed.set(account, triggerAt);
    await this.store.cancelAfter.arm(account, triggerAt);
    return { timeoutSeconds, currentTime: isoTime(now), triggerTime: isoTime(triggerAt) };
  }

  /** Fires every switch whose time has come, then disarms it; returns how many fired. */
  fireDue(): Promise<number> {
    const sweep = this.tail.then(async () => {
      const now = this.clock.now();
      const due = [...this.armed].filter(([, triggerAt]) => triggerAt <= now);
      let fired = 0;
      for (const [account, triggerAt] of due) if (await this.fire(account, triggerAt)) fired++;
      return fired;
    });
    this.tail = sweep.catch(() => {});
    return sweep;
  }

  /** A switch that cannot fire now (the desk refused) stays armed and is tried again at the next sweep. */
  private async fire(account: string, triggerAt: number): Promise<boolean> {
    try {
      const floor = (await this.store.nonces.lastIssued(account)) + 1n;
      // A floor already that high has voided every order there is; the reactor needs no second raise.
      const canceled =
        floor > (await this.store.nonces.floor(account)) ? await this.desk.cancelBelowFloor(account, floor, 'CANCEL_AFTER') : [];
      if (this.armed.get(account) === triggerAt) this.armed.delete(account);
      await this.store.cancelAfter.disarm(account, triggerAt);
      this.logger.info(
        { account, orders: canceled.length, nonceFloor: floor.toString() },
        'cancel-after switch fired: open orders cancelled',
      );
      return true;
    } catch (error) {
      this.logger.error({ err: error, account }, 'cancel-after switch could not fire; trying again at the next sweep');
      return false;
    }
  }
}
