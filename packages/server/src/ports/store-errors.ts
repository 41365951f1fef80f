/**
 * What a store refuses or fails with. Outside ports/store/, so that the edges, which translate them
 * into answers and exit codes, need not import the store's ports.
 */

/** A uniqueness or reference rule of the store was broken; `message` says which. */
export class StoreConflictError extends Error {
  override readonly name = 'StoreConflictError';
}

/**
 * The store could not write (or read): its disk is full or failing, or its server is out of reach.
 * Nothing of a failed write was kept (a transaction rolls back whole); the same write may succeed
 * once space, or the server, returns.
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}
