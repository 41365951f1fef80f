/**
 * The reactor's roles whose change waits its `changeDelay` and is then taken up: the `Role` enum of
 * PartialFillLimitOrderReactor.sol in declaration order (index = the value `proposeRole` takes).
 */
export const REACTOR_ROLES = ['Owner', 'Operator', 'FeeRecipient', 'PairFactory'] as const;

export type ReactorRole = (typeof REACTOR_ROLES)[number];

/** The enum value of a role, as `proposeRole` and `acceptRole` take it. */
export function reactorRole(role: ReactorRole): number {
  return REACTOR_ROLES.indexOf(role);
}
