import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A realistic terminal payload for the relay benchmarks: `ls -la --color=always /usr/bin /usr/lib; seq 1 2000`
 * repeated to `mb` MB, in a fresh folder the sshd user can read. Remove `path.dirname(file)` when done.
 */
export function buildPayload(mb: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jumpgate-bench-payload-'));
  fs.chmodSync(dir, 0o755);
  const file = path.join(dir, 'big.txt');
  const unit = execFileSync('sh', ['-c', 'ls -la --color=always /usr/bin /usr/lib; seq 1 2000'], { maxBuffer: 64 * 1024 * 1024 });
  const fd = fs.openSync(file, 'w', 0o644);
  let size = 0;
  while (size + unit.length <= mb * 1e6) {
    fs.writeSync(fd, unit);
    size += unit.length;
  }
  fs.closeSync(fd);
  return file;
}
