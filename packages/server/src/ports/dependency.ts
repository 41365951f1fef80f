/** Something the service needs before it can serve: `GET /ready` asks each one. */
export interface Dependency {
  /** Short name shown in the readiness answer: `store`, `chain`. */
  readonly name: string;
  /** Resolves when the dependency answers; rejects (or never settles) when it does not. */
  check(): Promise<void>;
}
