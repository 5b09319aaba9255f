import type { StrategyFlags } from '../../db/schema.ts';
import { FLAGS } from '../../policy/strategies.ts';

/*
 * What a new session may do with files and the clipboard (contract §2.10). The strategy is that of the grant the
 * access rule picked; none (the owner, the super admin, or a grant without strategy) is no restriction, as in 1.3.9.
 */

/** What a session offers for files: the relay says (relay.ts `files`); none when it says nothing. */
export interface FileOffer {
  /** 1 when a file browser is offered (SSH's SFTP, an RDP drive). */
  fileSystem: number;
  /** The storage a desktop's drive maps ('' = none). */
  storageId: string;
}

export const NO_FILES: FileOffer = { fileSystem: 0, storageId: '' };

export interface SessionFlags extends StrategyFlags, FileOffer {}

const ALL = Object.fromEntries(FLAGS.map((f) => [f, 1])) as unknown as StrategyFlags;

/** Every flag off. */
export const NO_FLAGS = Object.fromEntries(FLAGS.map((f) => [f, 0])) as unknown as StrategyFlags;

/** The flags the strategy that applies grants (null = none applies: every flag on). */
export function grantedFlags(strategy: StrategyFlags | null): StrategyFlags {
  return strategy ? (Object.fromEntries(FLAGS.map((f) => [f, strategy[f] === 1 ? 1 : 0])) as unknown as StrategyFlags) : ALL;
}

/** The POST /sessions answer: `{id, …flags as "1"/"0", storageId}` (contract §2.10), plus `createDir` (1.3.9 had none). */
export function sessionAnswer(id: string, f: SessionFlags) {
  const s = (v: number) => (v === 1 ? '1' : '0');
  return {
    id,
    upload: s(f.upload),
    download: s(f.download),
    delete: s(f.delete),
    rename: s(f.rename),
    edit: s(f.edit),
    createDir: s(f.createDir),
    storageId: f.storageId,
    fileSystem: s(f.fileSystem),
    copy: s(f.copy),
    paste: s(f.paste),
  };
}
