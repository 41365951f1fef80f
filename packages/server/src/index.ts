export {
  DEVNET_NATIVE_TOKEN_ID,
  DEVNET_PROTOCOL_TOKEN_ID,
  DEVNET_USD_TOKEN_ID,
  NATIVE_COIN_ID,
} from './application/markets/seed.js';
export { type AppDeps, buildApp } from './composition/app.js';
export { type Config, ConfigError, loadConfig, type MarketMakerConfig, type Network } from './composition/config.js';
export { devnetIssuer, type KeyFileAccount, keyFileAccount } from './composition/devnet/devnet-accounts.js';
export { devnetAmm } from './composition/devnet/devnet-amm.js';
export type { DevnetChain, DevnetHost } from './composition/devnet/devnet-host.js';
export { createLogger } from './composition/logging.js';
export { type Companion, type ServiceLogger, type StartCompanion, serve } from './composition/serve.js';
export { type RunningServer, startServer } from './composition/server.js';
export { openServices, type Services } from './composition/services.js';
export type { AccountKeyType } from './domain/accounts/account-keys.js';
export { AppError, ERROR_CATALOGUE, type ErrorBody, type ErrorCode } from './domain/errors.js';
export { isNativeCoin } from './domain/markets/market.js';
export type {
  DepthDiffMessage,
  ServerMessage,
  StreamName,
  UserEventMessage,
  UserEventType,
  WelcomeMessage,
} from './edges/ws/protocol.js';
export type { AmmAdmin, AmmPool, FarmPool, FarmState, LiquidityAdded, LiquidityRequest } from './ports/amm-admin.js';
export type { DevnetFunding } from './ports/devnet-funding.js';
