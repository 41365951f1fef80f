export {
  type DevnetClients,
  devnetChain,
  devnetClients,
  fund,
  installTestToken,
  type TestTokenSpec,
} from './devnet-chain.js';
export { DevnetNode, DevnetNodeError, type DevnetNodeOptions, findAnvil } from './devnet-node.js';
export { PartialFillLimitOrderReactor, TestToken } from './generated/artifacts.js';
export { outcomeOf, PARTIES, type Party, REJECT_REASONS, type RejectReason, rejectReason } from './reject-reasons.js';
