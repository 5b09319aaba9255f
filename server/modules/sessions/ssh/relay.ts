import type { Client, ClientChannel, SFTPWrapper } from 'ssh2';
import type { Config } from '../../../config.ts';
import type { Capabilities } from '../live.ts';
import { CLOSE } from '../live.ts';
import { ConnectError, type Relay } from '../relay.ts';
import { recordingPath as pathOf } from '../shared.ts';
import { connectSsh, sshClientFailed } from './connect.ts';
import { fileRoutes } from './files.ts';
import { execCollect, statsRoutes } from './stats.ts';
import { userConnectReason } from '../../../policy/user-reason.ts';

/*
 * The SSH relay (contract §5.1): an SSH connection to the asset (connect.ts: the account, host key, gateway or
 * proxy), a PTY shell as the session's terminal, and on the same connection the file manager (SFTP, files.ts) and the
 * stats panel (exec, stats.ts). Routes and frames as 1.3.9's console expects them: `/sessions/:id/ssh`, its monitor
 * `/sessions/:id/ssh-monitor`.
 */

/** The SSH session's file manager: the SFTP channel on its connection, opened on first use and kept for the session. */
export interface SftpFiles {
  sftp(): Promise<SFTPWrapper>;
}

declare module '../live.ts' {
  interface Capabilities {
    /** The host's files over SFTP (ssh/files.ts). */
    files?: SftpFiles;
  }
}

/** asciicast v2 (contract §5.6). */
export const SSH_RECORDING = 'recording.cast';

/** `<recordingDir>/<id>/recording.cast`: where an SSH session's recording lies. */
export const recordingPath = (config: Pick<Config, 'recordingDir'>, sessionId: string) => pathOf(config, sessionId, SSH_RECORDING);

/** The capabilities an SSH connection gives its session: SFTP files and exec (each used through `ssh` at call time). */
export function sshCapabilities(ssh: () => Client): Omit<Capabilities, 'watch'> {
  let channel: Promise<SFTPWrapper> | undefined;
  const files: SftpFiles = {
    sftp: () => {
      channel ??= new Promise<SFTPWrapper>((resolve, reject) => {
        ssh().sftp((err, sftp) => {
          if (err) {
            channel = undefined; // the next use tries again
            reject(err);
          } else {
            sftp.on('close', () => {
              channel = undefined;
            });
            resolve(sftp);
          }
        });
      });
      return channel;
    },
  };
  return { files, exec: (command, timeoutMs) => execCollect(ssh(), command, timeoutMs) };
}

export const sshRelay: Relay = {
  protocol: 'ssh',
  paths: { attach: '/sessions/:id/ssh', monitor: '/sessions/:id/ssh-monitor' },
  recordingFile: SSH_RECORDING,
  userReason: userConnectReason,
  routes: (deps) => [...statsRoutes(deps), ...fileRoutes(deps)],
  // The SFTP file manager, on every SSH session (1.3.9 offered a file system on every protocol but RDP).
  files: () => ({ fileSystem: 1, storageId: '' }),
  async open({ deps, assetId, cols, rows, userLeft }) {
    const { client, username } = await connectSsh(deps, assetId);
    try {
      if (userLeft()) throw new ConnectError(CLOSE.normal.code, CLOSE.normal.message);
      let stream: ClientChannel;
      try {
        stream = await new Promise<ClientChannel>((resolve, reject) => {
          client.shell({ term: 'xterm-256color', cols, rows }, (err, s) => (err ? reject(err) : resolve(s)));
        });
      } catch (err) {
        throw new ConnectError(806, sshClientFailed((err as Error).message));
      }
      client.on('error', (err) => deps.log.debug({ err }, 'terminal ssh error'));
      return {
        username,
        link: {
          stream,
          errors: stream.stderr,
          resize: (c, r) => stream.setWindow(r, c, 0, 0),
          onGone: (fn) => client.on('close', fn),
          end: () => client.end(),
        },
        capabilities: sshCapabilities(() => client),
      };
    } catch (err) {
      client.end();
      throw err;
    }
  },
};
