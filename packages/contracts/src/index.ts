export { DevnetNode, DevnetNodeError, type DevnetNodeOptions, findAnvil } from './devnet-node.js';
export { PartialFillLimitOrderReactor, TestToken } from './generated/artifacts.js';
