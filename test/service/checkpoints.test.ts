import SQLite from 'libsql';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { startService } from '../../electron/service/service.js';
import { checkpointEveryMs } from '../../electron/service/store/checkpoints.js';

describe('background checkpoints', () => {
  it('copy a committed write into the database file itself while the service runs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'perch-checkpoints-'));
    const file = join(folder, 'perch.db');
    const service = await startService({ database: file });
    try {
      await service.store.insertInto('settings').values({ key: 'probe', value: 'written' }).execute();
      // The file alone, without its WAL beside it, holds only what a checkpoint copied into it.
      const inFileAlone = () => {
        const copy = join(folder, 'copy.db');
        copyFileSync(file, copy);
        const database = new SQLite(copy);
        try {
          return database.prepare("SELECT value FROM settings WHERE key = 'probe'").all();
        } finally {
          database.close();
        }
      };
      // SQLite alone would wait for a thousand pages of WAL; one small write is a page or two. The
      // worker may have backed off to its idle interval by the time the write lands (a slow start
      // on a busy machine), so the wait allows two of them.
      await vi.waitFor(() => expect(inFileAlone()).toEqual([{ value: 'written' }]), { timeout: 2 * checkpointEveryMs.idle, interval: 100 });
    } finally {
      await service.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
