/**
 * The exclusive right of one process to act in a role over a shared store (the one writer of a
 * store, the active settler): held while the process lives and reaches the store.
 */
export interface Lease {
  /** Settles when the lease is gone (its holder lost the store): the holder must stop acting at once. */
  readonly lost: Promise<Error>;
  release(): Promise<void>;
}

export interface Leases {
  /** Takes the named lease, or answers undefined while another process holds it. */
  tryAcquire(name: string): Promise<Lease | undefined>;
}
