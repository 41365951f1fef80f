import { seedDevnet } from '../../../application/markets/seed.js';
import type { OperatorCommand } from '../operator-command.js';

export const devnetSeedCommand: OperatorCommand = {
  group: 'devnet',
  actions: ['seed'],
  synopsis: '          create the devnet markets in an empty store',
  async run({ print }, io) {
    const seeded = await seedDevnet(io.store, io.clock.now());
    print({ seeded }, seeded ? 'created the devnet markets' : 'the store already has tokens; nothing seeded');
    return seeded ? 0 : 1;
  },
};
