import type { OperatorCommand } from '../operator-command.js';

export const devnetSeedCommand: OperatorCommand = {
  group: 'devnet',
  actions: ['seed'],
  synopsis: '          create the devnet markets in an empty store',
  async run({ print }, io) {
    const seeded = await io.markets.seedDevnet();
    print({ seeded }, seeded ? 'created the devnet markets' : 'the store already has tokens; nothing seeded');
    return seeded ? 0 : 1;
  },
};
