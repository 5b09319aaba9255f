import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  host: string;
  port: number;
  /** Folder holding the database file (and, later, recordings and storages). */
  dataDir: string;
  /** Session recordings, one folder per session (`<recordingDir>/<sessionId>/<file>`, the file named by its relay; contract §5.6). */
  recordingDir: string;
  /** Largest file the SSH file manager takes in one upload (`JUMPGATE_SESSION_UPLOAD_MAX_BYTES`, default 1 GiB). */
  sessionUploadMaxBytes: number;
  /** Live sessions one account may hold at once (`JUMPGATE_SESSION_LIVE_MAX`, default 10; sessions/caps.ts). */
  sessionLiveMax: number;
  /**
   * Desktop (RDP) sessions this server runs at once (`JUMPGATE_DESKTOP_MAX`, default 20): each is an Xvnc and an
   * xfreerdp, ≈ 120 MB (sessions/rdp/supervise.ts DesktopSlots). Every account together; refused before anything starts.
   */
  desktopMax: number;
  /** `POST /sessions` one account may make per minute (`JUMPGATE_SESSION_CREATE_PER_MINUTE`, default 30). */
  sessionCreatePerMinute: number;
  /**
   * What a recording that cannot be written does to its session (`JUMPGATE_RECORDING_FAILURE`): `end` (default: no
   * unrecorded sessions; a session whose recording fails ends, a session whose recording cannot start is refused) or
   * `continue` (the session goes on, its recording marked incomplete). Either way the row says why and when.
   */
  recordingFailure: RecordingFailurePolicy;
  /** Free space of the recording folder below which the monitoring warns (`JUMPGATE_RECORDING_MIN_FREE_MB`, default 1024). */
  recordingMinFreeMb: number;
  /** `sqlite:<file>`; other schemes are refused until their dialect exists. */
  database: string;
  /** Built console (vite `dist/`; `JUMPGATE_DIST` serves another build, e.g. for benchmarks comparing two). */
  distDir: string;
  brand: { name: string; description: string; copyright: string };
  /** Password given to the admin account created on an empty database; generated when absent. */
  adminPassword?: string;
  /** Trust X-Forwarded-For for the client IP (only behind a reverse proxy you control). */
  trustProxy: boolean;
  /** JUMPGATE_SECRET_KEY (base64, 32 bytes): the secret box key; absent = the key file in dataDir (lib/secret-box.ts). */
  secretKey?: string;
  /** JUMPGATE_SECRET_KEY_OLD (comma-separated): previous keys, for decrypting only while rotating. */
  secretKeysOld: string[];
}

export class ConfigError extends Error {}

export const RECORDING_FAILURE_POLICIES = ['end', 'continue'] as const;
export type RecordingFailurePolicy = (typeof RECORDING_FAILURE_POLICIES)[number];

function recordingFailurePolicy(value: string | undefined): RecordingFailurePolicy {
  const v = value?.trim() ?? '';
  if (v === '') return 'end';
  const policy = RECORDING_FAILURE_POLICIES.find((p) => p === v);
  if (!policy) throw new ConfigError(`JUMPGATE_RECORDING_FAILURE: expected ${RECORDING_FAILURE_POLICIES.join(' or ')}, got "${value}"`);
  return policy;
}

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `host:port` or `[v6]:port`. */
export function parseAddr(addr: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*)):(\d{1,5})$/.exec(addr.trim());
  const port = Number(m?.[3]);
  if (!m || port > 65535) throw new ConfigError(`invalid address "${addr}": expected host:port, e.g. 127.0.0.1:8088`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

function flag(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === `--${name}`) {
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) throw new ConfigError(`--${name} needs a value`);
      return v;
    }
    if (a.startsWith(`--${name}=`)) return a.slice(name.length + 3);
  }
  return undefined;
}

const DEFAULT_SESSION_UPLOAD_MAX_BYTES = 1024 ** 3;
const DEFAULT_SESSION_LIVE_MAX = 10;
const DEFAULT_SESSION_CREATE_PER_MINUTE = 30;
const DEFAULT_DESKTOP_MAX = 20;
const DEFAULT_RECORDING_MIN_FREE_MB = 1024;

function positiveInt(name: string, value: string | undefined, fallback: number, unit = 'bytes'): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value.trim());
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name}: expected a positive whole number of ${unit}, got "${value}"`);
  return n;
}

const truthy = (v: string | undefined) => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/** Flags win over environment variables, which win over defaults. */
export function loadConfig(argv: string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): Config {
  const { host, port } = parseAddr(flag(argv, 'addr') ?? env.JUMPGATE_ADDR ?? '127.0.0.1:8088');
  const dataDir = path.resolve(flag(argv, 'data') ?? env.JUMPGATE_DATA ?? './data');
  const database = env.JUMPGATE_DATABASE || `sqlite:${path.join(dataDir, 'jumpgate.db')}`;
  if (!database.startsWith('sqlite:')) throw new ConfigError(`JUMPGATE_DATABASE: only sqlite:<file> is supported so far, got "${database}"`);
  const year = new Date().getFullYear();
  return {
    host,
    port,
    dataDir,
    recordingDir: path.resolve(env.JUMPGATE_RECORDING_DIR || path.join(dataDir, 'recording')),
    sessionUploadMaxBytes: positiveInt('JUMPGATE_SESSION_UPLOAD_MAX_BYTES', env.JUMPGATE_SESSION_UPLOAD_MAX_BYTES, DEFAULT_SESSION_UPLOAD_MAX_BYTES),
    sessionLiveMax: positiveInt('JUMPGATE_SESSION_LIVE_MAX', env.JUMPGATE_SESSION_LIVE_MAX, DEFAULT_SESSION_LIVE_MAX, 'sessions'),
    desktopMax: positiveInt('JUMPGATE_DESKTOP_MAX', env.JUMPGATE_DESKTOP_MAX, DEFAULT_DESKTOP_MAX, 'sessions'),
    sessionCreatePerMinute: positiveInt('JUMPGATE_SESSION_CREATE_PER_MINUTE', env.JUMPGATE_SESSION_CREATE_PER_MINUTE, DEFAULT_SESSION_CREATE_PER_MINUTE, 'sessions'),
    recordingFailure: recordingFailurePolicy(env.JUMPGATE_RECORDING_FAILURE),
    recordingMinFreeMb: positiveInt('JUMPGATE_RECORDING_MIN_FREE_MB', env.JUMPGATE_RECORDING_MIN_FREE_MB, DEFAULT_RECORDING_MIN_FREE_MB, 'MB'),
    database,
    distDir: path.resolve(env.JUMPGATE_DIST || path.join(REPO_ROOT, 'dist')),
    brand: {
      name: env.JUMPGATE_BRAND_NAME || 'Jumpgate',
      description: env.JUMPGATE_BRAND_DESCRIPTION || '远程访问堡垒机',
      copyright: env.JUMPGATE_BRAND_COPYRIGHT || `Copyright © ${year} Jumpgate`,
    },
    adminPassword: env.JUMPGATE_ADMIN_PASSWORD || undefined,
    trustProxy: truthy(env.JUMPGATE_TRUST_PROXY),
    secretKey: env.JUMPGATE_SECRET_KEY || undefined,
    secretKeysOld: (env.JUMPGATE_SECRET_KEY_OLD ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  };
}
