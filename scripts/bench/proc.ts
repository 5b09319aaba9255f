import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

const HZ = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

/** User + system CPU seconds of a process so far, from /proc (a benchmark's server, sshd…). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / HZ; // utime + stime
}
