/** The account routes' requests and answers (login, fees, onboarding) and the public signing domain and health. */
import { type Static, type TBoolean, Type } from 'typebox';

const AccountId = Type.String({
  maxLength: 64,
  description: 'A ledger account `0.0.X` (key type from the account registry) or a 0x secp256k1 address',
});

export const ChallengeBody = Type.Object({ accountId: AccountId }, { additionalProperties: false });
export const ChallengeResponse = Type.Object({
  message: Type.String({ description: 'Sign exactly this text; it is single-use and expires within minutes' }),
});
export const VerifyBody = Type.Object(
  {
    accountId: AccountId,
    signature: Type.String({
      maxLength: 200,
      description:
        '0x hex. 0x accounts and ECDSA ledger accounts: 65-byte EIP-191 personal-sign; ED25519: 64-byte signature of the message bytes',
    }),
  },
  { additionalProperties: false },
);
export const VerifyResponse = Type.Object({
  token: Type.String({ description: 'Access token: send as Authorization: Bearer <token>' }),
});

/** The book of `/fees/:orderbookId` and `/onboarding/:orderbookId/status`. */
export const AccountBookParams = Type.Object({ orderbookId: Type.String() });
export const FeesQuery = Type.Object({ side: Type.Optional(Type.String({ description: 'maker (default) or taker' })) });
const FeeSide = Type.Union([Type.Literal('maker'), Type.Literal('taker')]);
export const FeesResponse = Type.Object({
  side: FeeSide,
  marketId: Type.String({
    description: "The market's 32-byte id, 0x-hex (as the live API sends it): here the book id, left-padded",
  }),
  makerFeePips: Type.Integer({ description: '1 pip = 1e-6 = 0.0001%' }),
  takerFeePips: Type.Integer(),
  capFractionPips: Type.Integer({ description: 'Maker rebate cap as a fraction of taker fees; 0: no rebates here' }),
});

/** The onboarding steps of an account on a book, in the order they are taken. */
export const ONBOARDING_STEPS = [
  'associateBaseToken',
  'associateQuoteToken',
  'approveBaseTokenPermit2',
  'approveQuoteTokenPermit2',
  'approveBaseTokenReactor',
  'approveQuoteTokenReactor',
] as const;

export const OnboardingResponse = Type.Object({
  steps: Type.Object(
    Object.fromEntries(ONBOARDING_STEPS.map((step) => [step, Type.Boolean()])) as {
      [Step in (typeof ONBOARDING_STEPS)[number]]: TBoolean;
    },
  ),
  pendingSteps: Type.Array(Type.String()),
  completedSteps: Type.Array(Type.String()),
  isComplete: Type.Boolean(),
  // Our additions (the live answer has the four fields above only): what a client needs to send the pending steps.
  baseToken: Type.String({ description: "The book's base token (0x, lower case): the associations and approvals are per token" }),
  quoteToken: Type.String({ description: "The book's quote token (0x, lower case)" }),
  reactor: Type.String({
    description: "The reactor (0x, lower case): the spender to approve inside Permit2; the signing domain's verifyingContract",
  }),
  permit2: Type.Union([Type.String(), Type.Null()], {
    description:
      "The Permit2 contract the reactor pulls through (0x, lower case), as the reactor's permit2() names it; each token is approved to it. Null without a settlement chain (CHAIN=off), where every step is complete",
  }),
});

export const SignatureDomainSchema = Type.Object({
  name: Type.String(),
  version: Type.String(),
  chainId: Type.Integer(),
  verifyingContract: Type.String({ description: "The reactor's address" }),
});

export const HealthResponse = Type.Object({
  status: Type.Literal('ok'),
  network: Type.String(),
  time: Type.Integer({ description: 'Server time, unix ms' }),
  uptimeSeconds: Type.Integer(),
  books: Type.Integer({ description: 'Number of order books loaded' }),
});

export const ReadyResponse = Type.Object({
  status: Type.Literal('ready'),
  dependencies: Type.Array(Type.String(), { description: 'What answered: `store`, and `chain` when fills settle on one' }),
});

export type FeeSide = Static<typeof FeeSide>;
/** `GET /fees/:orderbookId`; rates in pips (1 pip = 0.0001 %). */
export type FeeRates = Static<typeof FeesResponse>;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];
/** The fields of `GET /onboarding/:orderbookId/status` that this service adds to the live answer. */
type OnboardingAdditions = 'baseToken' | 'quoteToken' | 'reactor' | 'permit2';
/**
 * `GET /onboarding/:orderbookId/status`. The document types the step lists as strings; they hold step names. The
 * contract addresses are this service's additions, absent from the live service's answer: optional here.
 */
export type OnboardingStatus = Omit<
  Static<typeof OnboardingResponse>,
  'pendingSteps' | 'completedSteps' | OnboardingAdditions
> & {
  pendingSteps: OnboardingStep[];
  completedSteps: OnboardingStep[];
} & Partial<Pick<Static<typeof OnboardingResponse>, OnboardingAdditions>>;
/** `GET /signature/domain`: the EIP-712 domain orders are signed against. */
export type SignatureDomain = Static<typeof SignatureDomainSchema>;
/** `GET /health`. */
export type Health = Static<typeof HealthResponse>;
/** `GET /ready`. */
export type Ready = Static<typeof ReadyResponse>;
