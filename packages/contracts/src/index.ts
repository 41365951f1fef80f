export { type AmmContracts, type AmmDeployment, type AmmDeploymentOptions, deployAmm } from './amm-deployment.js';
export { type AnvilLocation, DevnetNodeError, findAnvil } from './anvil-binary.js';
export { isAnvil, readPid } from './anvil-process.js';
export { createFileAtomic, removeStrayTemps, writeFileAtomic } from './atomic-file.js';
export { type DeployerWallet, DeploymentError, type DeploymentStep } from './contract-deployer.js';
export { type CompiledCode, isDeployedCode } from './deployed-code.js';
export {
  ACCOUNT_KEY_SERVICE_ADDRESS,
  associateToken,
  type DevnetClients,
  type DevnetWallet,
  devnetChain,
  devnetClients,
  farmWriteGas,
  fund,
  installAccountKeyService,
  installPermit2,
  installTestToken,
  installWrappedNative,
  isAssociated,
  isWrappedNative,
  PERMIT2_ADDRESS,
  registerEd25519Key,
  type TestTokenSpec,
  WEI_PER_TINYBAR,
} from './devnet-chain.js';
export { compactState, type StateCompaction } from './devnet-history.js';
export { DevnetNode } from './devnet-node.js';
export type { DevnetNodeOptions } from './devnet-node-options.js';
export { type DevnetLog, goodStateFile } from './devnet-state.js';
export {
  DEPLOYMENT_FORMAT,
  type DeployExchangeParameters,
  type DeploymentRecord,
  deployExchange,
  parseDeploymentRecord,
} from './exchange-deployment.js';
export {
  AmmFactory,
  AmmPair,
  AmmRouter,
  DevnetAccountKeyService,
  Farm,
  FreezingToken,
  PartialFillLimitOrderReactor,
  Permit2,
  SauceStaking,
  TestToken,
  TokenTransfers,
  WrappedNative,
} from './generated/artifacts.js';
export { PERMIT2_MAX_AMOUNT, PERMIT2_MAX_EXPIRATION, permit2Approvals } from './permit2-approvals.js';
export { processLives } from './process-alive.js';
export { REACTOR_ROLES, type ReactorRole, reactorRole } from './reactor-roles.js';
export { outcomeOf, PARTIES, type Party, REJECT_REASONS, type RejectReason, rejectReason } from './reject-reasons.js';
