export * from './amount.js';
export * from './book/events.js';
export * from './book/matching-engine.js';
export * from './book/types.js';
export * from './errors.js';
export * from './grid.js';
export * from './quote.js';
export * from './state-hash.js';
