import { afterEach } from 'vitest';
import { closeAll } from '../server/harness.ts';

// Server tests run in node against real SQLite files in temporary folders; close and remove them after each test.
afterEach(() => closeAll());
