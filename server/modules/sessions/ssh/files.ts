import { once } from 'node:events';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { SFTPWrapper, Stats } from 'ssh2';
import { z } from 'zod';
import type { StorageAction } from '../../../db/schema.ts';
import { ApiError, badRequest, fail, ok } from '../../../http/envelope.ts';
import type { StreamedFile } from '../../../http/multipart.ts';
import { route } from '../../../http/routes.ts';
import type { SessionDeps } from '../deps.ts';
import { uuid } from '../../../lib/ids.ts';
import { formatDate } from '../../../lib/time.ts';
import { oneId } from '../../../http/ids.ts';
import { REFUSAL, type RefusalReason, recordOperation, recordStorageLog } from '../../logs/index.ts';
import { sessionAccess } from '../access.ts';
import { CLOSE, type LiveSession } from '../live.ts';
import { liveOf, MSG_OWNED, ownSession } from '../owned.ts';

/*
 * The terminal's file manager (contract §2.10, §3.16, §5.5): SFTP on the creator's running SSH session. Each
 * operation asks the access rule again and needs its flag both on the session row and in the current decision (a
 * strategy narrowed or a grant removed applies at once; a session the rule now refuses ends), and, except listing, is
 * written to storage_logs before it runs, so failed operations are on record too. Files move as streams both ways:
 * nothing holds a whole file in memory. Only regular files are read or written: a device, a FIFO or a /proc file has
 * no honest size, and opening a FIFO blocks the host's SFTP server for the rest of the session. An operation the
 * strategy forbids (or the access rule no longer allows) is written to the operation log as refused, with its reason.
 */

export const MSG_FILES = {
  protocol: '当前协议不支持此操作',
  directoryDownload: '不能下载文件夹',
  notAFile: '只能下载普通文件',
  notAFileToWrite: (p: string) => `${p} 不是普通文件`,
  noDir: (p: string) => `文件夹不存在：${p}`,
  badName: '文件名不合法',
  root: '不能删除根目录',
  tooMany: (n: number) => `文件夹内容过多（超过 ${n} 项），请在终端中删除`,
  tooDeep: (n: number) => `文件夹层级过深（超过 ${n} 层），请在终端中删除`,
  tooLarge: (n: number) => `文件超过上传大小限制（${n} 字节）`,
  failed: (what: string, why: string) => `${what}失败：${why}`,
};

/** Limits of a recursive delete (counted before anything is removed). */
export const RM_MAX_ENTRIES = 10_000;
export const RM_MAX_DEPTH = 64;
/** The progress stream reports at most every this many acknowledged bytes (and at the end). */
const PROGRESS_STEP = 256 * 1024;
/** The largest text the editor saves (a form field; larger files move by upload). */
export const EDIT_MAX_BYTES = 1024 * 1024;
/**
 * Bytes buffered towards / read ahead from SFTP: enough for many write requests in flight at once (ssh2 sends the
 * buffered writes of a stream in parallel), where its 16 KiB default waited for an acknowledgement every few packets.
 */
const SFTP_BUFFER = 1024 * 1024;
/** Uploads are written to SFTP in pieces of this size (a request body may arrive in much larger chunks). */
const WRITE_PIECE = 64 * 1024;

const zPath = z
  .string()
  .max(4096, 'at most 4096 characters')
  .refine((v) => !v.includes('\0'), 'must not contain NUL');

type Flag = 'upload' | 'download' | 'delete' | 'rename' | 'edit' | 'createDir';

/** The operation each flag allows, as the logs name it. */
const FLAG_ACTION: Record<Flag, StorageAction> = { upload: 'upload', download: 'download', delete: 'rm', rename: 'rename', edit: 'edit', createDir: 'mkdir' };

/** Who asks for a flagged operation, and on what (the path as sent): written to the operation log when refused. */
interface Attempt {
  user: { id: string; username: string };
  ip: string;
  target: string;
}

/** One entry of a listing (contract §3.16). */
export interface FileEntry {
  name: string;
  path: string;
  isDir: boolean;
  isLink: boolean;
  size: number;
  modTime: string;
  mode: string;
}

const S_IFMT = 0o170000;
/** The file type letter `ls -l` starts with, by the type bits of the mode. */
const TYPE_LETTERS = new Map<number, string>([
  [0o100000, '-'],
  [0o040000, 'd'],
  [0o120000, 'l'],
  [0o020000, 'c'],
  [0o060000, 'b'],
  [0o010000, 'p'],
  [0o140000, 's'],
]);

/**
 * A POSIX mode as `ls -l` shows it: `drwxr-xr-x`, `-rw-r--r--`, `lrwxrwxrwx`, `drwxrwxrwt` (/tmp), `-rwsr-xr-x`
 * (setuid), `-rwxr-sr-x` (setgid). Setuid, setgid and sticky replace the execute letter of their class: lower case over
 * an `x`, upper case (`S`, `T`) where the execute bit is off. Ten characters always. A mode without type bits (a host
 * that sends the permissions only) reads as a regular file; an unknown type as `?`. (1.3.9 sent Go's FileMode.String(),
 * `dtrwxrwxrwx` and `Lrwxrwxrwx`, which no terminal user reads like that.)
 */
export function modeString(mode: number): string {
  const type = mode & S_IFMT;
  const letter = type === 0 ? '-' : (TYPE_LETTERS.get(type) ?? '?');
  const rwx = [...'rwxrwxrwx'].map((c, i) => (mode & (1 << (8 - i)) ? c : '-'));
  const special = (bit: number, at: number, on: string) => {
    if (mode & bit) rwx[at] = rwx[at] === 'x' ? on : on.toUpperCase();
  };
  special(0o4000, 2, 's');
  special(0o2000, 5, 's');
  special(0o1000, 8, 't');
  return letter + rwx.join('');
}

// One collator for every comparison: `localeCompare` with options builds one per call (a folder of 2,000 names took
// ≈ 100 ms to sort that way).
const byName = new Intl.Collator(undefined, { sensitivity: 'base' }).compare;

/** Folders first, then files; each by name, case-insensitively (the 1.3.9 console's order). */
export function sortEntries(entries: FileEntry[]): FileEntry[] {
  return entries.sort((a, b) => Number(b.isDir) - Number(a.isDir) || byName(a.name, b.name) || (a.name < b.name ? -1 : 1));
}

/** An SFTP error in the user's words. */
function why(err: unknown): string {
  const { code, message } = err as { code?: number; message?: string };
  if (code === 2) return '文件或文件夹不存在';
  if (code === 3) return '权限不足';
  if (code === 4 && message === 'Failure') return '操作被远程主机拒绝（目标已存在或不为空？）';
  return message || String(err);
}

const sftpFailed = (what: string) => (err: unknown) => {
  if (err instanceof ApiError) throw err;
  throw fail(MSG_FILES.failed(what, why(err)));
};

/** How long one SFTP request may take; tests shorten it. */
export const sftpDeadline = { ms: 60_000 };

/** An SFTP request that got no answer within sftpDeadline. */
class SftpTimeout extends Error {
  constructor() {
    super('远程主机的文件服务无响应');
  }
}

/**
 * ssh2's callback API as promises, each request bounded: an sftp-server that never answers (a hung disk, a FIFO
 * opened elsewhere) fails the request instead of holding it, and its channel is closed, so the session's next file
 * operation opens a fresh one (LiveSession.sftp) rather than queueing behind the stuck request.
 */
const call = <T>(sftp: SFTPWrapper, fn: (cb: (err: Error | null | undefined, value: T) => void) => void) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new SftpTimeout());
      sftp.end();
    }, sftpDeadline.ms);
    fn((err, value) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(value);
    });
  });

function contentDisposition(file: string): string {
  const name = path.posix.basename(file) || 'download';
  // An ASCII stand-in for old clients, and the exact name in RFC 5987 form for the rest.
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function fileRoutes({ db, clock, live, config }: SessionDeps) {
  /** The SFTP home of each running session (`realpath('.')`), where `~` and relative paths start. */
  const homes = new WeakMap<LiveSession, Promise<string>>();

  /**
   * The caller's own live SSH session with its SFTP channel, after the access and flag checks (`-1 禁止操作`). A
   * flagged operation the strategy forbids, or that the access rule no longer allows, is written to the operation
   * log as refused (with `attempt`: who, from where, on what); `refuse` does the same for a later check of the route.
   */
  async function fileAccess(userId: string, id: string, flag?: Flag, attempt?: Attempt) {
    const row = await ownSession(db, userId, id);
    if (row.protocol !== 'ssh') throw fail(MSG_FILES.protocol);
    const refuse = async (reason: RefusalReason, message: string) => {
      if (flag && attempt) {
        const asset = await db.selectFrom('assets').select('name').where('id', '=', row.assetId).executeTakeFirst();
        const target = `${asset?.name ?? row.assetId}:${attempt.target}`;
        const event = { user: attempt.user, clientIp: attempt.ip, action: `file-${FLAG_ACTION[flag]}` as const, target, count: 1, result: 'refused' as const, reason };
        await recordOperation(db, event, clock.now());
      }
      return fail(message);
    };
    if (flag && row[flag] !== 1) throw await refuse(REFUSAL.strategy, MSG_OWNED.forbidden);
    const session = liveOf(live, row);
    const access = await sessionAccess(db, userId, row.assetId, clock.now());
    if (!access) {
      await session.close(CLOSE.revoked.code, CLOSE.revoked.message);
      throw await refuse(REFUSAL.accessRevoked, CLOSE.denied.message);
    }
    /** The flag on the row (at attach, or since a strategy change) and in the decision now. */
    const may = (f: Flag) => row[f] === 1 && access.flags[f] === 1;
    if (flag && !may(flag)) throw await refuse(REFUSAL.strategy, MSG_OWNED.forbidden);
    const files = session.capabilities.files;
    if (!files) throw fail(MSG_OWNED.offline);
    const sftp = await files.sftp().catch((err: Error) => {
      throw fail(MSG_FILES.failed('打开SFTP通道', err.message));
    });
    let home = homes.get(session);
    if (!home) {
      home = call<string>(sftp, (cb) => sftp.realpath('.', cb)).catch(() => '/');
      homes.set(session, home);
    }
    const base = await home;
    /** An absolute, normalised path: `~` and relative paths from the home; `..` cannot climb above `/`. */
    const resolve = (p: string) => path.posix.resolve(base, (p === '~' ? '' : p.startsWith('~/') ? p.slice(2) : p) || '.');
    const log = (action: StorageAction, fileName: string) =>
      recordStorageLog(db, { assetId: row.assetId, sessionId: row.id, userId, action, fileName, created: clock.now() });
    return { row, sftp, resolve, log, may, refuse };
  }

  return [
    // Ours (1.3.9 had none): where the file manager opens, the SFTP home (`realpath('.')`, the login folder of the
    // account on the host), as an absolute path. Not logged, like a listing.
    route({
      method: 'GET',
      path: '/sessions/:id/home',
      allow: 'authenticated',
      params: oneId,
      handler: async ({ params, principal }) => {
        const { resolve } = await fileAccess(principal.user.id, params.id);
        return { path: resolve('~') };
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/ls',
      allow: 'authenticated',
      params: oneId,
      body: z.object({ dir: zPath.optional() }),
      handler: async ({ params, body, principal }) => {
        const { sftp, resolve } = await fileAccess(principal.user.id, params.id);
        const dir = resolve(body.dir ?? '');
        const list = await call<{ filename: string; attrs: Stats }[]>(sftp, (cb) => sftp.readdir(dir, cb)).catch(sftpFailed('读取文件夹'));
        return sortEntries(
          list
            .filter((e) => e.filename !== '.' && e.filename !== '..')
            .map((e) => ({
              name: e.filename,
              path: path.posix.join(dir, e.filename),
              isDir: e.attrs.isDirectory(),
              isLink: e.attrs.isSymbolicLink(),
              size: e.attrs.size,
              modTime: formatDate(e.attrs.mtime * 1000),
              mode: modeString(e.attrs.mode),
            })),
        );
      },
    }),

    route({
      method: 'GET',
      path: '/sessions/:id/download',
      allow: 'authenticated',
      params: oneId,
      query: z.object({ file: zPath }),
      handler: async ({ params, query, principal, req, reply }) => {
        const { sftp, resolve, log } = await fileAccess(principal.user.id, params.id, 'download', { user: principal.user, ip: req.ip, target: query.file });
        const file = resolve(query.file);
        await log('download', file);
        const st = await call<Stats>(sftp, (cb) => sftp.stat(file, cb)).catch(sftpFailed('下载'));
        if (st.isDirectory()) throw fail(MSG_FILES.directoryDownload);
        // Checked before open: a FIFO's open would block the SFTP server; a device or /proc file lies about its size.
        if (!st.isFile()) throw fail(MSG_FILES.notAFile);
        reply.header('content-type', 'application/octet-stream').header('content-disposition', contentDisposition(file)).header('cache-control', 'no-store');
        // HEAD: the headers only (Fastify would read the whole remote file to discard it).
        if (req.method === 'HEAD') return reply.send();
        const handle = await call<Buffer>(sftp, (cb) => sftp.open(file, 'r', cb)).catch(sftpFailed('下载'));
        if (st.size === 0) {
          sftp.close(handle, () => {});
          return reply.header('content-length', '0').send('');
        }
        // Opened before answering, so a refusal is still an envelope; then streamed chunk by chunk, never more than
        // the Content-Length announced (a file that grows meanwhile would spill into the next answer on the connection).
        const stream = sftp.createReadStream(file, { handle, autoClose: true, highWaterMark: SFTP_BUFFER, start: 0, end: st.size - 1 });
        return reply.header('content-length', String(st.size)).send(stream);
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/upload',
      allow: 'authenticated',
      params: oneId,
      // Someone else's (or no) session is refused before a byte of the upload is read.
      beforeBody: ({ params, principal }) => ownSession(db, principal.user.id, params.id),
      query: z.object({ dir: zPath.optional() }),
      fileStream: { field: 'file', maxFileBytes: config.sessionUploadMaxBytes },
      handler: async ({ params, query, principal, req, reply }) => {
        const sent = req.fileStream ? path.posix.join(query.dir ?? '', req.fileStream.filename) : (query.dir ?? '');
        const { sftp, resolve, log, may } = await fileAccess(principal.user.id, params.id, 'upload', { user: principal.user, ip: req.ip, target: sent });
        const upload = req.fileStream;
        if (!upload) throw badRequest('file: required');
        const name = path.posix.basename(upload.filename.replaceAll('\\', '/'));
        if (!name || name === '.' || name === '..' || name.includes('\0')) throw fail(MSG_FILES.badName);
        const dir = resolve(query.dir ?? '');
        const target = path.posix.join(dir, name);
        await log('upload', target);
        upload.take();
        // Missing folders are made only with createDir as well (it gates mkdir; upload alone must not undo it).
        await (may('createDir') ? mkdirs(sftp, dir) : assertDir(sftp, dir)).catch(sftpFailed('上传'));
        const existing = await statOrNull(sftp, target).catch(sftpFailed('上传'));
        if (existing && !existing.isFile()) throw fail(MSG_FILES.failed('上传', MSG_FILES.notAFileToWrite(target)));
        // Written aside, under a temporary name in the same folder, and renamed over the target once complete: an
        // upload cut off mid-body (or refused, or failed) leaves the existing file as it was.
        const aside = path.posix.join(dir, `.${name.slice(0, 200)}.jumpgate-${uuid().slice(0, 8)}.part`);
        const handle = await call<Buffer>(sftp, (cb) => sftp.open(aside, 'w', existing ? { mode: existing.mode & 0o7777 } : {}, cb)).catch(sftpFailed('上传'));
        return progressStream(reply, (progress) => copyToSftp(sftp, aside, target, handle, upload, config.sessionUploadMaxBytes, progress));
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/edit',
      allow: 'authenticated',
      params: oneId,
      beforeBody: ({ params, principal }) => ownSession(db, principal.user.id, params.id),
      // The 1.3.9 editor posts the whole file as a form field: up to EDIT_MAX_BYTES with its path (JSON bodies: the 1 MB
      // limit); the bound holds for all the form's fields together.
      maxFieldBytes: EDIT_MAX_BYTES,
      body: z.object({ file: zPath, fileContent: z.string() }),
      handler: async ({ params, body, principal, req }) => {
        const { sftp, resolve, log, may, refuse } = await fileAccess(principal.user.id, params.id, 'edit', { user: principal.user, ip: req.ip, target: body.file });
        const file = resolve(body.file);
        await log('edit', file);
        // Edit changes files that exist; a new file is an upload (its flag), and only regular files are written.
        const exists = await assertRegularOrAbsent(sftp, file).catch(sftpFailed('保存'));
        if (!exists && !may('upload')) throw await refuse(REFUSAL.strategy, MSG_OWNED.forbidden);
        let content = body.fileContent.replaceAll('\r\n', '\n');
        if (!content.endsWith('\n')) content += '\n';
        await call<void>(sftp, (cb) => sftp.writeFile(file, content, (err) => cb(err, undefined))).catch(sftpFailed('保存'));
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/mkdir',
      allow: 'authenticated',
      params: oneId,
      query: z.object({ dir: zPath }),
      handler: async ({ params, query, principal, req }) => {
        // Gated by createDir (1.3.9 used upload, quirk 21).
        const { sftp, resolve, log } = await fileAccess(principal.user.id, params.id, 'createDir', { user: principal.user, ip: req.ip, target: query.dir });
        const dir = resolve(query.dir);
        await log('mkdir', dir);
        await call<void>(sftp, (cb) => sftp.mkdir(dir, (err) => cb(err, undefined))).catch(sftpFailed('创建文件夹'));
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/rm',
      allow: 'authenticated',
      params: oneId,
      body: z.object({ file: zPath }),
      handler: async ({ params, body, principal, req }) => {
        const { sftp, resolve, log } = await fileAccess(principal.user.id, params.id, 'delete', { user: principal.user, ip: req.ip, target: body.file });
        const file = resolve(body.file);
        if (file === '/') throw fail(MSG_FILES.root);
        await log('rm', file);
        await removeTree(sftp, file).catch(sftpFailed('删除'));
        return null;
      },
    }),

    route({
      method: 'POST',
      path: '/sessions/:id/rename',
      allow: 'authenticated',
      params: oneId,
      query: z.object({ oldName: zPath, newName: zPath }),
      handler: async ({ params, query, principal, req }) => {
        const { sftp, resolve, log } = await fileAccess(principal.user.id, params.id, 'rename', { user: principal.user, ip: req.ip, target: `${query.oldName} -> ${query.newName}` });
        const from = resolve(query.oldName);
        const to = resolve(query.newName);
        await log('rename', `${from} -> ${to}`);
        if (from !== to) await call<void>(sftp, (cb) => sftp.rename(from, to, (err) => cb(err, undefined))).catch(sftpFailed('重命名'));
        return null;
      },
    }),
  ];
}

/** The path's attributes, or null when it does not exist (other SFTP errors are thrown). */
async function statOrNull(sftp: SFTPWrapper, p: string): Promise<Stats | null> {
  return call<Stats>(sftp, (cb) => sftp.stat(p, cb)).catch((err: { code?: number }) => {
    if (err.code === 2) return null;
    throw err;
  });
}

/** The folder exists (else an error for sftpFailed: `-1 上传失败：文件夹不存在：…`). */
async function assertDir(sftp: SFTPWrapper, dir: string): Promise<void> {
  const st = await statOrNull(sftp, dir);
  if (!st) throw new Error(MSG_FILES.noDir(dir));
  if (!st.isDirectory()) throw new Error(`${dir} 不是文件夹`);
}

/** True when `file` is a regular file, false when it does not exist; anything else (a FIFO, a device) is refused. */
async function assertRegularOrAbsent(sftp: SFTPWrapper, file: string): Promise<boolean> {
  const st = await statOrNull(sftp, file);
  if (st && !st.isFile()) throw new Error(MSG_FILES.notAFileToWrite(file));
  return st !== null;
}

/** `mkdir -p`: creates the missing folders of an absolute path, one by one. */
async function mkdirs(sftp: SFTPWrapper, dir: string): Promise<void> {
  let at = '/';
  for (const part of dir.split('/').filter(Boolean)) {
    at = path.posix.join(at, part);
    const st = await call<Stats>(sftp, (cb) => sftp.stat(at, cb)).catch(() => null);
    if (st?.isDirectory()) continue;
    if (st) throw fail(MSG_FILES.failed('上传', `${at} 不是文件夹`));
    await call<void>(sftp, (cb) => sftp.mkdir(at, (err) => cb(err, undefined)));
  }
}

/**
 * Removes a file, a link, or a folder with everything in it. Links are removed, never followed (the listing's
 * attributes are lstat's), so a link to `/` cannot take the host with it. The tree is walked first, within
 * RM_MAX_DEPTH and RM_MAX_ENTRIES, and nothing is removed when it is larger.
 */
async function removeTree(sftp: SFTPWrapper, target: string): Promise<void> {
  const top = await call<Stats>(sftp, (cb) => sftp.lstat(target, cb));
  if (!top.isDirectory()) {
    await call<void>(sftp, (cb) => sftp.unlink(target, (err) => cb(err, undefined)));
    return;
  }
  // Children before their folder: the order of removal.
  const order: { path: string; dir: boolean }[] = [];
  const walk = async (dir: string, depth: number) => {
    if (depth > RM_MAX_DEPTH) throw fail(MSG_FILES.tooDeep(RM_MAX_DEPTH));
    const list = await call<{ filename: string; attrs: Stats }[]>(sftp, (cb) => sftp.readdir(dir, cb));
    for (const e of list) {
      if (e.filename === '.' || e.filename === '..') continue;
      const p = path.posix.join(dir, e.filename);
      if (e.attrs.isDirectory()) await walk(p, depth + 1);
      order.push({ path: p, dir: e.attrs.isDirectory() });
      if (order.length > RM_MAX_ENTRIES) throw fail(MSG_FILES.tooMany(RM_MAX_ENTRIES));
    }
  };
  await walk(target, 1);
  for (const e of order) await call<void>(sftp, (cb) => (e.dir ? sftp.rmdir(e.path, (err) => cb(err, undefined)) : sftp.unlink(e.path, (err) => cb(err, undefined))));
  await call<void>(sftp, (cb) => sftp.rmdir(target, (err) => cb(err, undefined)));
}

/**
 * Answers HTTP 200 `text/event-stream` at once and runs `work`, which reports acknowledged bytes; the body is
 * `"<bytes>㊥"` chunks, then the JSON envelope of the outcome (contract §5.5): success, or the error.
 */
function progressStream(reply: FastifyReply, work: (progress: (bytes: number) => void) => Promise<void>): FastifyReply {
  const out = new PassThrough();
  reply.header('content-type', 'text/event-stream; charset=utf-8').header('cache-control', 'no-store').header('x-accel-buffering', 'no').send(out);
  work((bytes) => out.write(`${bytes}㊥`)).then(
    () => out.end(JSON.stringify(ok(null))),
    (err: unknown) => {
      const e = err instanceof ApiError ? err : fail(MSG_FILES.failed('上传', why(err)));
      out.end(JSON.stringify(e.toEnvelope()));
    },
  );
  return reply;
}

/**
 * Pipes the uploaded part into the open remote file `aside`, reporting the bytes SFTP has acknowledged, and once the
 * whole part arrived renames it over `target` (OpenSSH's posix-rename, which replaces; else remove, then rename).
 * Over the size limit, cut off, or on any failure, the partial file `aside` is removed and `target` is untouched.
 */
async function copyToSftp(
  sftp: SFTPWrapper,
  aside: string,
  target: string,
  handle: Buffer,
  upload: StreamedFile,
  maxBytes: number,
  progress: (bytes: number) => void,
): Promise<void> {
  // A body cut off mid-file errors the part's stream: the loop below sees it; never an unhandled 'error' event.
  upload.file.on('error', () => {});
  const ws = sftp.createWriteStream(aside, { handle, autoClose: true, highWaterMark: SFTP_BUFFER });
  let failure: unknown = null;
  ws.on('error', (err: unknown) => {
    failure ??= err;
  });
  let acked = 0;
  let reported = 0;
  const report = (force = false) => {
    if (acked !== reported && (force || acked - reported >= PROGRESS_STEP)) {
      reported = acked;
      progress(acked);
    }
  };
  try {
    for await (const received of upload.file as AsyncIterable<Buffer>) {
      if (failure) throw failure;
      // Written in pieces of at most WRITE_PIECE: SFTP acknowledges each, and the progress follows the acks.
      let fits = true;
      for (let at = 0; at < received.length; at += WRITE_PIECE) {
        const piece = received.subarray(at, at + WRITE_PIECE);
        fits = ws.write(piece, (err) => {
          if (err) return;
          acked += piece.length;
          report();
        });
      }
      if (!fits) await once(ws, 'drain');
    }
    if (upload.file.truncated) throw fail(MSG_FILES.tooLarge(maxBytes));
    await upload.finish();
    ws.end();
    await once(ws, 'close');
    if (failure) throw failure;
    await renameOver(sftp, aside, target);
    report(true);
  } catch (err) {
    ws.destroy();
    upload.file.resume();
    await call<void>(sftp, (cb) => sftp.unlink(aside, (e) => cb(e, undefined))).catch(() => {});
    throw err;
  }
}

/** Renames `from` over `to`: atomically with OpenSSH's extension; else (SFTP v3 never replaces) removes `to` first. */
async function renameOver(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  const ext = sftp as SFTPWrapper & { ext_openssh_rename?: (a: string, b: string, cb: (err?: Error | null) => void) => void };
  let supported = true;
  await call<void>(sftp, (cb) => {
    try {
      ext.ext_openssh_rename!(from, to, (err) => cb(err, undefined));
    } catch {
      supported = false; // ssh2 throws when the server lacks posix-rename@openssh.com
      cb(null, undefined);
    }
  });
  if (supported) return;
  await call<void>(sftp, (cb) => sftp.unlink(to, () => cb(null, undefined)));
  await call<void>(sftp, (cb) => sftp.rename(from, to, (err) => cb(err, undefined)));
}
