import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store.js';
import { storeContract } from './store.contract.js';

// A file database (not :memory:) so two instances can share it and durability means something.
storeContract('SQLite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'regpay-store-'));
  const url = `sqlite:${join(dir, 'regpay.db')}`;
  return Promise.resolve({
    open: () => openStore(url),
    drop: () => {
      rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  });
});
