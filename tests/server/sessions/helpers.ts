import fs from 'node:fs';
import path from 'node:path';
import ssh2, { type SFTPWrapper } from 'ssh2';
import type { Config } from '../../../server/config.ts';
import type { SessionsTable } from '../../../server/db/schema.ts';
import { defineModule } from '../../../server/http/routes.ts';
import { uuid } from '../../../server/lib/ids.ts';
import type { LiveSession, LiveSessions } from '../../../server/modules/sessions/live.ts';
import { recordingPath } from '../../../server/modules/sessions/shared.ts';
import type { HarnessOptions } from '../harness.ts';
import { resourcesHarness } from '../resources/helpers.ts';
import type { TestSshd } from '../sshd.ts';

const { Client } = ssh2;

/**
 * The resources harness plus the running app's `deps.live` (to register sessions as the relay does) and its config
 * (the recording folder).
 */
export async function sessionsHarness(opts: HarnessOptions = {}) {
  let live: LiveSessions | undefined;
  let config: Config | undefined;
  const grab = defineModule('grab-live', (deps) => {
    live = deps.live;
    config = deps.config;
    return [];
  });
  const r = await resourcesHarness({ ...opts, modules: [...(opts.modules ?? []), grab] });
  const { h } = r;
  return {
    ...r,
    get live(): LiveSessions {
      if (!live) throw new Error('live sessions not captured');
      return live;
    },
    get config(): Config {
      if (!config) throw new Error('config not captured');
      return config;
    },
    /** Inserts a session row as the relay leaves it (defaults: a disconnected SSH session of the super admin). */
    async seedSession(s: Partial<SessionsTable> = {}): Promise<string> {
      const id = s.id ?? uuid();
      const now = h.clock.now();
      await h.db
        .insertInto('sessions')
        .values({
          id,
          protocol: 'ssh',
          ip: '10.0.0.7',
          port: 22,
          assetId: 'no-asset',
          accessGatewayId: null,
          username: 'root',
          connectionId: id,
          creator: 'abcdefghijklmnopqrstuvwxyz',
          clientIp: '127.0.0.1',
          mode: 'native',
          status: 'disconnected',
          width: 80,
          height: 24,
          created: now,
          connectedTime: now,
          disconnectedTime: now + 1000,
          code: 0,
          message: '',
          recording: '',
          reviewed: 0,
          commandCount: 0,
          strategyId: null,
          upload: 1,
          download: 1,
          delete: 1,
          rename: 1,
          edit: 1,
          createDir: 1,
          copy: 1,
          paste: 1,
          fileSystem: 1,
          storageId: '',
          ...s,
        })
        .execute();
      return id;
    },
    /** Writes the session's recording file (as the relay would) and returns its path. */
    writeRecording(sessionId: string, content: string | Buffer): string {
      const file = recordingPath(config!, sessionId);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
  };
}

export type SessionsHarness = Awaited<ReturnType<typeof sessionsHarness>>;

/** A LiveSession whose close() is observable: every call is recorded, and it leaves the registry as the relay's does. */
export interface TestLiveSession extends LiveSession {
  closed: { code: number; message: string }[];
  /** Ends the SSH connection (afterAll / test end). */
  end(): void;
}

/**
 * Registers a live session backed by a real ssh2 connection to the test sshd, standing in for the terminal relay
 * (another part of the server): what the file manager, stats and forced disconnect need from a running session.
 */
export async function connectLive(live: LiveSessions, sshd: TestSshd, s: { id: string; creator: string; assetId: string }): Promise<TestLiveSession> {
  const ssh = new Client();
  await new Promise<void>((resolve, reject) => {
    ssh.once('ready', () => resolve());
    ssh.once('error', reject);
    ssh.connect({ host: sshd.host, port: sshd.port, username: sshd.username, privateKey: sshd.privateKey, readyTimeout: 10_000 });
  });
  ssh.on('error', () => {}); // a connection reset after the test is not its failure
  let sftp: Promise<SFTPWrapper> | undefined;
  const session: TestLiveSession = {
    ...s,
    ssh,
    closed: [],
    sftp() {
      sftp ??= new Promise((resolve, reject) => ssh.sftp((err, channel) => (err ? reject(err) : resolve(channel))));
      return sftp;
    },
    close(code, message) {
      session.closed.push({ code, message });
      live.remove(session);
      ssh.end();
    },
    end() {
      live.remove(session);
      ssh.end();
    },
  };
  live.add(session);
  return session;
}
