import type { Protocol, StrategyFlags } from '../../db/schema.ts';
import { FLAGS } from '../../policy/strategies.ts';

/*
 * What a new session may do with files and the clipboard (contract §2.10). The strategy is that of the grant the
 * access rule picked; none (the owner, the super admin, or a grant without strategy) is no restriction, as in 1.3.9.
 */

export interface SessionFlags extends StrategyFlags {
  /** 1 when a file browser is offered: SSH (SFTP), or RDP with its drive enabled. */
  fileSystem: number;
  /** The RDP drive's storage: the asset's `drive-path`, else the caller's own storage (id = user id); '' otherwise. */
  storageId: string;
}

const ALL = Object.fromEntries(FLAGS.map((f) => [f, 1])) as unknown as StrategyFlags;

/** Every flag off. */
export const NO_FLAGS = Object.fromEntries(FLAGS.map((f) => [f, 0])) as unknown as StrategyFlags;

/**
 * The session's flags from the asset (protocol, attributes) and the strategy that applies (null = none).
 * 1.3.9 said `fileSystem: "1"` for every protocol but RDP; here only SSH, whose SFTP browser exists: VNC, Telnet and
 * Kubernetes have no file system to offer.
 */
export function sessionFlags(protocol: Protocol, attributes: ReadonlyMap<string, string>, strategy: StrategyFlags | null, callerId: string): SessionFlags {
  const granted: StrategyFlags = strategy ? (Object.fromEntries(FLAGS.map((f) => [f, strategy[f] === 1 ? 1 : 0])) as unknown as StrategyFlags) : ALL;
  if (protocol === 'rdp') {
    const drive = attributes.get('enable-drive') === 'true';
    return { ...granted, fileSystem: drive ? 1 : 0, storageId: drive ? attributes.get('drive-path') || callerId : '' };
  }
  return { ...granted, fileSystem: protocol === 'ssh' ? 1 : 0, storageId: '' };
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
