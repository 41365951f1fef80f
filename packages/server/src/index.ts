export { type AppDeps, buildApp } from './app.js';
export { type Config, ConfigError, loadConfig, type Network } from './config.js';
export { AppError, ERROR_CATALOGUE, type ErrorBody, type ErrorCode } from './errors.js';
export { createLogger } from './logging.js';
export { type RunningServer, startServer } from './server.js';
export { openServices, type Services } from './services.js';
export type {
  DepthDiffMessage,
  ServerMessage,
  StreamName,
  UserEventMessage,
  UserEventType,
  WelcomeMessage,
} from './ws/protocol.js';
