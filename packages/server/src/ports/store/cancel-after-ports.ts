/** An armed dead-man switch: at `triggerAt` (unix ms) every open order of the account is cancelled. */
export interface ArmedSwitch {
  readonly account: string;
  readonly triggerAt: number;
}

/** The dead-man switches of `POST /cancel/after`, kept so that a restart does not disarm them. */
export interface CancelAfterStore {
  /** Arms the account's switch, replacing the one it had. */
  arm(account: string, triggerAt: number): Promise<void>;
  /** Disarms the account's switch; with `triggerAt`, only while it is still the one set for that time. */
  disarm(account: string, triggerAt?: number): Promise<void>;
  armed(): Promise<ArmedSwitch[]>;
}
