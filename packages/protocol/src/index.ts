/**
 * The exchange's wire protocol, written once: the server validates and documents with these
 * schemas, and the SDK's types are their static types, so the two cannot drift apart.
 */
export * from './account.js';
export * from './data-api.js';
export * from './data-api-v2.js';
export * from './depth-book.js';
export * from './forms.js';
export * from './market-data.js';
export * from './orders.js';
export * from './query.js';
export * from './settlement.js';
export * from './streams.js';
export * from './wire-time.js';
