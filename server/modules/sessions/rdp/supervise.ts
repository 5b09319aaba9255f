import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { text } from '../../../lib/i18n.ts';
import { ConnectError } from '../reach.ts';

/*
 * The processes of desktop sessions (display.ts's Xvnc, freerdp.ts's xfreerdp) are children of the server:
 * - killed with their session (each handle's stop), and all at once when the server stops (`stopAllDesktops`, and a
 *   SIGKILL of what is left when the process exits, so none survives a clean exit);
 * - found at start when a crashed server left them (`sweepOrphans`): a process whose command line carries the marker
 *   (`-desktop jumpgate-<id>`, `/wm-class:jumpgate-<id>`) and whose environment names its owner (`JUMPGATE_DESKTOP_OWNER`,
 *   the pid that started it) is an orphan when its parent is no longer that owner (the owner died: it was reparented).
 *   A process of another live server (tests run several) keeps its parent and is left alone.
 * - counted: at most `JUMPGATE_DESKTOP_MAX` desktop sessions at once in this process (`DesktopSlots`), refused before
 *   anything starts.
 */

const live = new Set<ChildProcess>();
let exitHook = false;

/** Follows a child until it exits; the returned function forgets it sooner. */
export function track(child: ChildProcess): () => void {
  live.add(child);
  const forget = () => live.delete(child);
  child.once('exit', forget);
  if (!exitHook) {
    exitHook = true;
    // Synchronous, last chance: a server that exits leaves no desktop behind.
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL');
    });
  }
  return () => {
    forget();
  };
}

/** Live desktop processes of this server (for tests and the monitoring). */
export const trackedPids = (): number[] => [...live].map((c) => c.pid).filter((p): p is number => p !== undefined);

/** Ends every desktop process of this server: TERM, then KILL after `graceMs`. */
export async function stopAllDesktops(graceMs = 2000): Promise<void> {
  const children = [...live];
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          if (c.exitCode !== null || c.signalCode !== null) return resolve();
          const timer = setTimeout(() => c.kill('SIGKILL'), graceMs);
          c.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
}

/** The command names a desktop session starts. */
const COMMS = new Set(['Xvnc', 'xfreerdp']);
const OWNER_RE = /(?:^|\0)JUMPGATE_DESKTOP_OWNER=(\d+)(?:\0|$)/;
const MARKED = /^(?:-desktop\0jumpgate-|\/wm-class:jumpgate-)/;

export interface Orphan {
  pid: number;
  comm: string;
  owner: number;
  parent: number;
}

const read = (file: string): string | undefined => {
  try {
    return fs.readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
};

/** Desktop processes whose owner is gone (see above), from /proc. */
export function findOrphans(): Orphan[] {
  const orphans: Orphan[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const comm = read(`/proc/${pid}/comm`)?.trim();
    if (!comm || !COMMS.has(comm)) continue;
    const cmdline = read(`/proc/${pid}/cmdline`) ?? '';
    const args = cmdline.split('\0');
    if (!args.some((a, i) => MARKED.test(`${a}\0${args[i + 1] ?? ''}`))) continue;
    const owner = Number(OWNER_RE.exec(read(`/proc/${pid}/environ`) ?? '')?.[1]);
    if (!owner) continue;
    const parent = Number(/^PPid:\s*(\d+)/m.exec(read(`/proc/${pid}/status`) ?? '')?.[1]);
    if (parent === owner) continue;
    orphans.push({ pid, comm, owner, parent });
  }
  return orphans;
}

/** Kills the orphans of crashed servers (at start); returns what it killed. */
export function sweepOrphans(): Orphan[] {
  const orphans = findOrphans();
  for (const o of orphans) {
    try {
      process.kill(o.pid, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  return orphans;
}

export const MSG_DESKTOP_FULL = text('远程桌面会话数已达上限，请稍后再试', 'The server is running as many desktop sessions as it may; try again later');

/** The cap on concurrent desktop sessions of this server (`JUMPGATE_DESKTOP_MAX`). */
export class DesktopSlots {
  private used = 0;
  constructor(readonly max: number) {}
  get inUse(): number {
    return this.used;
  }
  /** Takes a slot or refuses (ConnectError −1) before anything starts; the returned function gives it back once. */
  acquire(): () => void {
    if (this.used >= this.max) throw new ConnectError(-1, MSG_DESKTOP_FULL);
    this.used++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used--;
    };
  }
}
