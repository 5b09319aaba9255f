import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SFTPWrapper } from 'ssh2';
import { modeString, sftpDeadline, sortEntries } from '../../../server/modules/sessions/ssh/files.ts';
import { uuid } from '../../../server/lib/ids.ts';
import type { HarnessOptions } from '../harness.ts';
import { SSHD_USER, startSshd, sshdUnavailable, type TestSshd } from '../sshd.ts';
import { insertAsset } from '../overview/rows.ts';
import { connectLive, type SessionsHarness, sessionsHarness } from './helpers.ts';

const B = 'jgUploadBoundary';
const MP = `multipart/form-data; boundary=${B}`;
const multipart = (filename: string, data: Buffer, field = 'file') =>
  Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${B}--\r\n`),
  ]);
const form = (fields: Record<string, string>) => `${Object.entries(fields).map(([k, v]) => `--${B}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')}--${B}--\r\n`;

/** `"<bytes>㊥"…` then the envelope (contract §5.5). */
function progressOf(text: string): { steps: number[]; envelope: { code: number; message: string } } {
  const pieces = text.split('㊥');
  const envelope = JSON.parse(pieces.pop()!) as { code: number; message: string };
  return { steps: pieces.map(Number), envelope };
}

describe('file listing helpers', () => {
  it('shows modes as `ls -l` does and sorts folders first, then names', () => {
    expect(modeString(0o040755)).toBe('drwxr-xr-x');
    expect(modeString(0o100644)).toBe('-rw-r--r--');
    expect(modeString(0o120777)).toBe('lrwxrwxrwx');
    // Sticky, setuid and setgid take the execute letter's place: lower case over x, upper case without it.
    expect(modeString(0o041777)).toBe('drwxrwxrwt');
    expect(modeString(0o041776)).toBe('drwxrwxrwT');
    expect(modeString(0o104755)).toBe('-rwsr-xr-x');
    expect(modeString(0o104644)).toBe('-rwSr--r--');
    expect(modeString(0o102755)).toBe('-rwxr-sr-x');
    expect(modeString(0o102745)).toBe('-rwxr-Sr-x');
    expect(modeString(0o042775)).toBe('drwxrwsr-x');
    expect(modeString(0o107777)).toBe('-rwsrwsrwt');
    expect(modeString(0o020620)).toBe('crw--w----');
    expect(modeString(0o060660)).toBe('brw-rw----');
    expect(modeString(0o010644)).toBe('prw-r--r--');
    expect(modeString(0o140777)).toBe('srwxrwxrwx');
    expect(modeString(0o000644)).toBe('-rw-r--r--'); // permissions only, no type bits
    for (const mode of [0o040755, 0o100644, 0o120777, 0o041777, 0o107777, 0o020620]) expect(modeString(mode)).toHaveLength(10);
    const e = (name: string, isDir: boolean) => ({ name, isDir, path: '', isLink: false, size: 0, modTime: '', mode: '' });
    expect(sortEntries([e('b.txt', false), e('Zoo', true), e('a.txt', false), e('apps', true), e('B.md', false)]).map((x) => x.name)).toEqual(['apps', 'Zoo', 'a.txt', 'B.md', 'b.txt']);
  });
});

describe.skipIf(sshdUnavailable())('the SFTP file manager on a live session (real sshd)', () => {
  let sshd: TestSshd;
  let home: string;
  let uid: number;
  let gid: number;
  const workspaces: string[] = [];

  beforeAll(async () => {
    sshd = await startSshd();
    home = execFileSync('sh', ['-c', `getent passwd ${SSHD_USER} | cut -d: -f6`]).toString().trim();
    uid = Number(execFileSync('id', ['-u', SSHD_USER]).toString());
    gid = Number(execFileSync('id', ['-g', SSHD_USER]).toString());
  });
  afterAll(async () => {
    for (const w of workspaces) fs.rmSync(w, { recursive: true, force: true });
    await sshd?.stop();
  });

  /** A folder in the sshd user's home, owned by that user, for one test. */
  function workspace(): string {
    const dir = path.join(home, `jg-files-${uuid()}`);
    fs.mkdirSync(dir);
    fs.chownSync(dir, uid, gid);
    workspaces.push(dir);
    return dir;
  }
  const put = (file: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
    fs.chownSync(file, uid, gid);
  };

  /** alice's live SSH session with every flag (`on`) and one with none (`off`), plus bob. */
  async function world(opts: HarnessOptions = {}) {
    const r: SessionsHarness = await sessionsHarness(opts);
    const { h } = r;
    const alice = await h.createUser({ username: 'alice' });
    const bob = await h.createUser({ username: 'bob' });
    const token = await h.accessToken(alice);
    const none = { upload: 0, download: 0, delete: 0, rename: 0, edit: 0, createDir: 0 };
    // alice owns the asset: the access rule (asked on every file operation) lets her in without restriction, and the
    // session rows' flags decide.
    await h.db.updateTable('assets').set({ id: 'asset-1', owner: alice }).where('id', '=', await insertAsset(h.db)).execute();
    const on = await r.seedSession({ creator: alice, assetId: 'asset-1', status: 'connected', disconnectedTime: null });
    const off = await r.seedSession({ creator: alice, assetId: 'asset-1', status: 'connected', disconnectedTime: null, ...none });
    const lives = [await connectLive(r.live, sshd, { id: on, creator: alice, assetId: 'asset-1' }), await connectLive(r.live, sshd, { id: off, creator: alice, assetId: 'asset-1' })];
    const as =
      (t: string) =>
      (method: string, url: string, o: { body?: unknown; raw?: string | Buffer; contentType?: string; headers?: Record<string, string> } = {}) => {
        h.clock.advance(1); // storage_logs in call order
        return h.call(method, url, { token: t, ...o });
      };
    const logs = async () => (await h.db.selectFrom('storageLogs').selectAll().orderBy('created').execute()).map((l) => [l.action, l.fileName, l.sessionId, l.userId, l.assetId]);
    return { ...r, alice, bob, on, off, lives, token, call: as(token), bobCall: as(await h.accessToken(bob)), logs, ws: workspace() };
  }

  it('lists a folder: folders first, every field of §3.16; ~ and relative paths start at the home; not logged', async () => {
    const { call, on, ws, logs, lives } = await world();
    put(path.join(ws, 'b.txt'), 'bee');
    put(path.join(ws, 'A.txt'), 'a');
    fs.mkdirSync(path.join(ws, 'zdir'));
    fs.symlinkSync('/etc', path.join(ws, 'etc-link'));
    const ls = async (dir: string) => call('POST', `/sessions/${on}/ls`, { body: { dir } });
    const res = await ls(ws);
    expect(res.body.code).toBe(1);
    const items = res.body.data as { name: string; path: string; isDir: boolean; isLink: boolean; size: number; mode: string; modTime: string }[];
    expect(items.map((i) => i.name)).toEqual(['zdir', 'A.txt', 'b.txt', 'etc-link']);
    expect(items[2]).toEqual({ name: 'b.txt', path: `${ws}/b.txt`, isDir: false, isLink: false, size: 3, mode: '-rw-r--r--', modTime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/) });
    expect(items[0]).toMatchObject({ isDir: true, mode: expect.stringMatching(/^d/) });
    expect(items[3]).toMatchObject({ isDir: false, isLink: true, mode: 'lrwxrwxrwx' });
    // The home, ~ and relative paths; `..` is normalised.
    const base = path.basename(ws);
    expect(((await ls(`~/${base}`)).body.data as unknown[]).length).toBe(4);
    expect(((await ls(`${base}/zdir/..`)).body.data as unknown[]).length).toBe(4);
    expect(((await ls('')).body.data as { name: string }[]).map((i) => i.name)).toContain(base);
    // The 1.3.9 console posts FormData.
    expect((await call('POST', `/sessions/${on}/ls`, { raw: form({ dir: ws }), contentType: MP })).body.code).toBe(1);
    expect((await ls(`${ws}/missing`)).body).toEqual({ code: -1, message: '读取文件夹失败：文件或文件夹不存在' });
    expect((await call('POST', `/sessions/${on}/ls`, { body: { dir: 'a\u0000b' } })).body).toMatchObject({ code: 400, message: 'dir: must not contain NUL' });
    expect(await logs()).toEqual([]);
    for (const l of lives) l.end();
  });

  it('modes read as `ls -l` prints them on the host: folders, files, links, sticky, setuid, setgid', async () => {
    const { call, on, ws, lives } = await world();
    const make = (name: string, mode: number, dir = false) => {
      const p = path.join(ws, name);
      if (dir) fs.mkdirSync(p);
      else put(p, 'x');
      fs.chownSync(p, uid, gid);
      fs.chmodSync(p, mode); // after chown, which clears setuid/setgid
    };
    make('sticky', 0o1777, true);
    make('sticky-no-x', 0o1776, true);
    make('shared', 0o2775, true);
    make('plain-dir', 0o755, true);
    make('setuid', 0o4755);
    make('setuid-no-x', 0o4644);
    make('setgid', 0o2755);
    make('plain', 0o640);
    fs.symlinkSync('plain', path.join(ws, 'link'));
    const items = (await call('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body.data as { name: string; mode: string }[];
    expect(items).toHaveLength(9);
    // What coreutils' ls says about each: the first column of `ls -l`, without the ACL / SELinux marker.
    const lsModes = execFileSync('ls', ['-l', '--time-style=+', ws], { env: { ...process.env, LC_ALL: 'C' } })
      .toString()
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => {
        const cols = line.split(/\s+/);
        const name = line.includes(' -> ') ? cols.at(-3) : cols.at(-1);
        return [name, cols[0]!.slice(0, 10)];
      });
    expect(Object.fromEntries(items.map((i) => [i.name, i.mode]))).toEqual(Object.fromEntries(lsModes));
    expect(Object.fromEntries(items.map((i) => [i.name, i.mode]))).toMatchObject({
      sticky: 'drwxrwxrwt',
      'sticky-no-x': 'drwxrwxrwT',
      shared: 'drwxrwsr-x',
      'plain-dir': 'drwxr-xr-x',
      setuid: '-rwsr-xr-x',
      'setuid-no-x': '-rwSr--r--',
      setgid: '-rwxr-sr-x',
      plain: '-rw-r-----',
      link: 'lrwxrwxrwx',
    });
    // /tmp, as the issue saw it (dtrwxrwxrwx before).
    const root = (await call('POST', `/sessions/${on}/ls`, { body: { dir: '/' } })).body.data as { name: string; mode: string }[];
    expect(root.find((i) => i.name === 'tmp')?.mode).toBe('drwxrwxrwt');
    for (const l of lives) l.end();
  });

  it('GET /sessions/:id/home answers the SFTP home, where the file manager opens; the creator only', async () => {
    const { call, bobCall, on, off, lives, seedSession, alice } = await world();
    expect((await call('GET', `/sessions/${on}/home`)).body).toEqual({ code: 1, message: 'success', data: { path: home } });
    // No file flag is needed to know where the files are (listing needs none either).
    expect((await call('GET', `/sessions/${off}/home`)).body).toEqual({ code: 1, message: 'success', data: { path: home } });
    expect((await bobCall('GET', `/sessions/${on}/home`)).body).toEqual({ code: -1, message: '获取会话失败' });
    const rdp = await seedSession({ creator: alice, protocol: 'rdp', status: 'connected' });
    expect((await call('GET', `/sessions/${rdp}/home`)).body).toEqual({ code: -1, message: '当前协议不支持此操作' });
    lives[0]!.end();
    expect((await call('GET', `/sessions/${on}/home`)).body).toEqual({ code: -1, message: '会话已离线' });
    lives[1]!.end();
  });

  it('refuses another user, other protocols and sessions that are not running', async () => {
    const { call, bobCall, on, ws, seedSession, alice, lives, h, root } = await world();
    expect((await bobCall('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body).toEqual({ code: -1, message: '获取会话失败' });
    expect((await h.call('POST', `/sessions/${on}/ls`, { token: root, body: { dir: ws } })).body).toEqual({ code: -1, message: '获取会话失败' });
    expect((await bobCall('GET', `/sessions/${on}/download?file=${ws}/x`)).body).toEqual({ code: -1, message: '获取会话失败' });
    const rdp = await seedSession({ creator: alice, protocol: 'rdp', status: 'connected' });
    for (const [method, url, body] of [
      ['POST', `/sessions/${rdp}/ls`, { dir: '/' }],
      ['GET', `/sessions/${rdp}/download?file=/etc/hostname`, undefined],
      ['POST', `/sessions/${rdp}/upload?dir=/tmp`, undefined],
      ['POST', `/sessions/${rdp}/edit`, { file: '/tmp/x', fileContent: 'x' }],
      ['POST', `/sessions/${rdp}/mkdir?dir=/tmp/x`, undefined],
      ['POST', `/sessions/${rdp}/rm`, { file: '/tmp/x' }],
      ['POST', `/sessions/${rdp}/rename?oldName=/tmp/x&newName=/tmp/y`, undefined],
    ] as const) {
      expect((await call(method, url, { body })).body, url).toEqual({ code: -1, message: '当前协议不支持此操作' });
    }
    lives[0]!.end();
    expect((await call('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body).toEqual({ code: -1, message: '会话已离线' });
    lives[1]!.end();
  });

  it('download: streamed byte-exact with the name in RFC 5987 form; needs the download flag; folders refused', async () => {
    const { h, call, on, off, ws, logs, alice, lives, token } = await world();
    const data = randomBytes(3 * 1024 * 1024 + 17);
    const file = path.join(ws, '报告 2026.bin');
    put(file, data);
    const url = (sid: string, f: string) => `/sessions/${sid}/download?file=${encodeURIComponent(f)}`;
    expect((await call('GET', url(off, file))).body).toEqual({ code: -1, message: '禁止操作' });
    expect(await logs()).toEqual([]);

    const res = await h.app.inject({ method: 'GET', url: url(on, file), headers: { 'x-auth-token': token } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe(String(data.length));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="__ 2026.bin"; filename*=UTF-8''${encodeURIComponent('报告 2026.bin')}`);
    expect(res.rawPayload.equals(data)).toBe(true);
    const head = await h.app.inject({ method: 'HEAD', url: url(on, file), headers: { 'x-auth-token': token } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-disposition']).toMatch(/^attachment; /);
    expect(head.rawPayload.length).toBe(0);

    expect((await call('GET', url(on, ws))).body).toEqual({ code: -1, message: '不能下载文件夹' });
    expect((await call('GET', url(on, `${ws}/nope`))).body).toEqual({ code: -1, message: '下载失败：文件或文件夹不存在' });
    // Logged before it ran, the failed ones too.
    expect(await logs()).toEqual([
      ['download', file, on, alice, 'asset-1'],
      ['download', file, on, alice, 'asset-1'],
      ['download', ws, on, alice, 'asset-1'],
      ['download', `${ws}/nope`, on, alice, 'asset-1'],
    ]);
    for (const l of lives) l.end();
  });

  it('upload: streamed to SFTP with the progress stream, byte-exact on disk, missing folders created; needs the upload flag', async () => {
    const { call, on, off, ws, logs, alice, lives } = await world();
    const data = randomBytes(5 * 1024 * 1024 + 3);
    const denied = await call('POST', `/sessions/${off}/upload?dir=${encodeURIComponent(ws)}`, { raw: multipart('denied.bin', data), contentType: MP });
    expect(denied.body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.existsSync(path.join(ws, 'denied.bin'))).toBe(false);

    const dir = `${ws}/new/deeper`;
    const res = await call('POST', `/sessions/${on}/upload?dir=${encodeURIComponent(dir)}`, { raw: multipart('big.bin', data), contentType: MP });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const { steps, envelope } = progressOf(res.text);
    expect(envelope).toEqual({ code: 1, message: 'success', data: null });
    expect(steps.length).toBeGreaterThan(3);
    expect(steps.at(-1)).toBe(data.length);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(fs.readFileSync(path.join(dir, 'big.bin')).equals(data)).toBe(true);
    expect(fs.statSync(path.join(dir, 'big.bin')).uid).toBe(uid);
    expect(await logs()).toEqual([['upload', `${dir}/big.bin`, on, alice, 'asset-1']]);

    // A path in the file name is not followed: only its last part counts.
    const sneaky = await call('POST', `/sessions/${on}/upload?dir=${encodeURIComponent(ws)}`, { raw: multipart('../../escape.txt', Buffer.from('x')), contentType: MP });
    expect(progressOf(sneaky.text).envelope.code).toBe(1);
    expect(fs.existsSync(path.join(ws, 'escape.txt'))).toBe(true);
    // No file part, or the file in another field.
    expect((await call('POST', `/sessions/${on}/upload?dir=${ws}`, { raw: form({ x: 'y' }), contentType: MP })).body).toEqual({ code: 400, message: 'file: required' });
    expect((await call('POST', `/sessions/${on}/upload?dir=${ws}`, { raw: multipart('a.txt', Buffer.from('a'), 'other'), contentType: MP })).body.code).toBe(400);
    for (const l of lives) l.end();
  });

  it('download: only regular files, never more bytes than the Content-Length; a FIFO does not wedge the session (audit H2 C7, C8)', async () => {
    const { h, call, on, ws, lives, token } = await world();
    const url = (f: string) => `/sessions/${on}/download?file=${encodeURIComponent(f)}`;
    // /proc files say size 0 and have content: the body is what the header announced, not what follows it.
    const proc = await h.app.inject({ method: 'GET', url: url('/proc/version'), headers: { 'x-auth-token': token } });
    expect(proc.statusCode).toBe(200);
    expect(proc.headers['content-length']).toBe('0');
    expect(proc.rawPayload.length).toBe(0);
    // A FIFO (its open would block the host's SFTP server until a writer comes) and a device are refused at once.
    const fifo = path.join(ws, 'pipe');
    execFileSync('mkfifo', [fifo]);
    fs.chownSync(fifo, uid, gid);
    expect((await call('GET', url(fifo))).body).toEqual({ code: -1, message: '只能下载普通文件' });
    expect((await call('GET', url('/dev/zero'))).body).toEqual({ code: -1, message: '只能下载普通文件' });
    // The session's SFTP channel still answers.
    expect((await call('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body.code).toBe(1);
    // An empty regular file: an empty body.
    put(path.join(ws, 'empty'), '');
    const empty = await h.app.inject({ method: 'GET', url: url(path.join(ws, 'empty')), headers: { 'x-auth-token': token } });
    expect([empty.statusCode, empty.headers['content-length'], empty.rawPayload.length]).toEqual([200, '0', 0]);
    for (const l of lives) l.end();
  });

  it('an SFTP request the host never answers fails after the deadline, and the next one gets a fresh channel', async () => {
    const { call, on, ws, lives } = await world();
    const live = lives[0]!;
    const real = live.sftp.bind(live);
    // The host's file service accepts the request and never answers (a hung disk; a real sftp-server cannot be made
    // to do it on cue): a channel that takes every call and calls nothing back.
    let ended = 0;
    const stuck = new Proxy({}, { get: (_, name) => (name === 'then' ? undefined : name === 'end' ? () => ended++ : () => {}) }) as SFTPWrapper;
    live.sftp = async () => stuck;
    const was = sftpDeadline.ms;
    sftpDeadline.ms = 200;
    try {
      expect((await call('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body).toEqual({ code: -1, message: '读取文件夹失败：远程主机的文件服务无响应' });
      expect(ended).toBeGreaterThan(0); // each stuck request closes the channel it waited on
    } finally {
      sftpDeadline.ms = was;
      live.sftp = real;
    }
    expect((await call('POST', `/sessions/${on}/ls`, { body: { dir: ws } })).body.code).toBe(1);
    for (const l of lives) l.end();
  });

  it('upload: missing folders are made only with createDir as well; a FIFO is never opened (audit H2 C9)', async () => {
    const { h, call, on, off, ws, lives } = await world();
    await h.db.updateTable('sessions').set({ upload: 1 }).where('id', '=', off).execute(); // upload without createDir
    const dir = `${ws}/new/deeper`;
    const refused = await call('POST', `/sessions/${off}/upload?dir=${encodeURIComponent(dir)}`, { raw: multipart('f.txt', Buffer.from('f')), contentType: MP });
    expect(refused.body).toEqual({ code: -1, message: `上传失败：文件夹不存在：${dir}` });
    expect(fs.existsSync(`${ws}/new`)).toBe(false);
    const into = await call('POST', `/sessions/${off}/upload?dir=${encodeURIComponent(ws)}`, { raw: multipart('f.txt', Buffer.from('f')), contentType: MP });
    expect(progressOf(into.text).envelope.code).toBe(1);
    expect(fs.readFileSync(path.join(ws, 'f.txt'), 'utf8')).toBe('f');
    // Over a FIFO: refused before open (which would block until a reader came).
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    fs.chownSync(path.join(ws, 'pipe'), uid, gid);
    const overFifo = await call('POST', `/sessions/${on}/upload?dir=${encodeURIComponent(ws)}`, { raw: multipart('pipe', Buffer.from('x')), contentType: MP });
    expect(overFifo.body).toEqual({ code: -1, message: `上传失败：${ws}/pipe 不是普通文件` });
    for (const l of lives) l.end();
  });

  it('edit: changes existing regular files; a new file needs the upload flag too (audit H2, edit)', async () => {
    const { h, call, off, ws, lives } = await world();
    await h.db.updateTable('sessions').set({ edit: 1 }).where('id', '=', off).execute(); // edit without upload
    const file = path.join(ws, 'conf.ini');
    put(file, 'old\n');
    expect((await call('POST', `/sessions/${off}/edit`, { body: { file, fileContent: 'new' } })).body.code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe('new\n');
    expect((await call('POST', `/sessions/${off}/edit`, { body: { file: `${ws}/created.sh`, fileContent: 'x' } })).body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.existsSync(`${ws}/created.sh`)).toBe(false);
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    fs.chownSync(path.join(ws, 'pipe'), uid, gid);
    expect((await call('POST', `/sessions/${off}/edit`, { body: { file: `${ws}/pipe`, fileContent: 'x' } })).body).toEqual({ code: -1, message: `保存失败：${ws}/pipe 不是普通文件` });
    for (const l of lives) l.end();
  });

  it('upload: over the size limit, the error envelope follows and no partial file is left', async () => {
    const { call, on, ws, lives } = await world({ env: { JUMPGATE_SESSION_UPLOAD_MAX_BYTES: String(1024 * 1024) } });
    const res = await call('POST', `/sessions/${on}/upload?dir=${encodeURIComponent(ws)}`, { raw: multipart('huge.bin', randomBytes(3 * 1024 * 1024)), contentType: MP });
    expect(progressOf(res.text).envelope).toEqual({ code: -1, message: '文件超过上传大小限制（1048576 字节）' });
    expect(fs.existsSync(path.join(ws, 'huge.bin'))).toBe(false);
    for (const l of lives) l.end();
  });

  it('upload over real HTTP: progress arrives while the file is sent', async () => {
    const { h, on, ws, lives, token } = await world();
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as AddressInfo;
    const data = randomBytes(8 * 1024 * 1024);
    const body = multipart('http.bin', data);
    const text = await new Promise<string>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: `/sessions/${on}/upload?X-Auth-Token=${token}&dir=${encodeURIComponent(ws)}`, headers: { 'content-type': MP, 'content-length': body.length } },
        (res) => {
          let out = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            out += c;
          });
          res.on('end', () => resolve(out));
        },
      );
      req.on('error', reject);
      // Sent in pieces, as a browser would.
      let at = 0;
      const next = () => {
        if (at >= body.length) return req.end();
        const piece = body.subarray(at, at + 256 * 1024);
        at += piece.length;
        if (req.write(piece)) setImmediate(next);
        else req.once('drain', next);
      };
      next();
    });
    const { steps, envelope } = progressOf(text);
    expect(envelope.code).toBe(1);
    expect(steps.at(-1)).toBe(data.length);
    expect(fs.readFileSync(path.join(ws, 'http.bin')).equals(data)).toBe(true);
    for (const l of lives) l.end();
  });

  it('upload cut off mid-body: the existing file stays as it was, no partial file is left, nothing is logged as an error (issue 28)', async () => {
    const lines: string[] = [];
    const { h, on, ws, lives, token } = await world({ logStream: { write: (line) => void lines.push(line) } });
    const kept = path.join(ws, 'keep.txt');
    put(kept, 'the old content\n');
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as AddressInfo;
    const body = multipart('keep.txt', randomBytes(4 * 1024 * 1024));
    await new Promise<void>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/sessions/${on}/upload?X-Auth-Token=${token}&dir=${encodeURIComponent(ws)}`, headers: { 'content-type': MP, 'content-length': body.length } });
      req.on('error', () => resolve());
      req.on('response', (res) => {
        res.resume();
        res.on('error', () => {});
        // The progress stream started: the upload is under way. Cut it off half-way.
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 50);
      });
      req.write(body.subarray(0, body.length / 2));
    });
    // The server notices the cut and cleans up.
    for (let i = 0; i < 100 && fs.readdirSync(ws).length > 1; i++) await new Promise((r) => setTimeout(r, 100));
    expect(fs.readdirSync(ws)).toEqual(['keep.txt']);
    expect(fs.readFileSync(kept, 'utf8')).toBe('the old content\n');
    expect(lines.map((l) => JSON.parse(l) as { level: number; msg: string }).filter((l) => l.level >= 50)).toEqual([]);
    // A complete upload replaces it, keeping its mode.
    fs.chmodSync(kept, 0o640);
    const res = await h.call('POST', `/sessions/${on}/upload?dir=${encodeURIComponent(ws)}`, { token, raw: multipart('keep.txt', Buffer.from('new')), contentType: MP });
    expect(progressOf(res.text).envelope.code).toBe(1);
    expect(fs.readFileSync(kept, 'utf8')).toBe('new');
    expect(fs.statSync(kept).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(ws)).toEqual(['keep.txt']);
    for (const l of lives) l.end();
  });

  it('edit: CRLF becomes LF with a trailing newline; needs the edit flag', async () => {
    const { call, on, off, ws, logs, lives } = await world();
    const file = path.join(ws, 'conf.ini');
    put(file, 'old\n');
    expect((await call('POST', `/sessions/${off}/edit`, { body: { file, fileContent: 'new' } })).body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.readFileSync(file, 'utf8')).toBe('old\n');
    expect((await call('POST', `/sessions/${on}/edit`, { raw: form({ file, fileContent: 'a=1\r\nb=2' }), contentType: MP })).body).toEqual({ code: 1, message: 'success', data: null });
    expect(fs.readFileSync(file, 'utf8')).toBe('a=1\nb=2\n');
    // The 1.3.9 editor posts the whole file as a form field: larger than the 64 KiB other forms get, up to 1 MiB.
    const big = 'x'.repeat(200 * 1024);
    expect((await call('POST', `/sessions/${on}/edit`, { raw: form({ file, fileContent: big }), contentType: MP })).body.code).toBe(1);
    expect(fs.readFileSync(file, 'utf8')).toBe(`${big}\n`);
    expect((await call('POST', `/sessions/${on}/edit`, { raw: form({ file, fileContent: 'y'.repeat(1024 * 1024 + 1) }), contentType: MP })).body.code).toBe(413);
    expect((await call('POST', `/sessions/${on}/edit`, { body: { file: `${ws}/no/such/file`, fileContent: 'x' } })).body).toEqual({ code: -1, message: '保存失败：文件或文件夹不存在' });
    expect((await logs()).map((l) => l.slice(0, 2))).toEqual([
      ['edit', file],
      ['edit', file],
      ['edit', `${ws}/no/such/file`],
    ]);
    for (const l of lives) l.end();
  });

  it('mkdir: needs the createDir flag (1.3.9 used upload, quirk 21)', async () => {
    const { h, call, on, off, ws, logs, lives, alice } = await world();
    expect((await call('POST', `/sessions/${off}/mkdir?dir=${ws}/made`)).body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.existsSync(`${ws}/made`)).toBe(false);
    // upload alone does not create folders.
    const uploadOnly = await h.db.updateTable('sessions').set({ upload: 1 }).where('id', '=', off).execute();
    expect(uploadOnly).toBeTruthy();
    expect((await call('POST', `/sessions/${off}/mkdir?dir=${ws}/made`)).body).toEqual({ code: -1, message: '禁止操作' });
    expect((await call('POST', `/sessions/${on}/mkdir?dir=${ws}/made`)).body.code).toBe(1);
    expect(fs.statSync(`${ws}/made`).isDirectory()).toBe(true);
    expect((await call('POST', `/sessions/${on}/mkdir?dir=${ws}/made`)).body.code).toBe(-1);
    expect(await logs()).toEqual([
      ['mkdir', `${ws}/made`, on, alice, 'asset-1'],
      ['mkdir', `${ws}/made`, on, alice, 'asset-1'],
    ]);
    for (const l of lives) l.end();
  });

  it('rm: recursive for folders, links removed and never followed; needs the delete flag', async () => {
    const { call, on, off, ws, logs, lives } = await world();
    const outside = workspace();
    put(path.join(outside, 'keep.txt'), 'keep');
    put(path.join(ws, 'tree/a/b/c.txt'), 'c');
    put(path.join(ws, 'tree/a/d.txt'), 'd');
    fs.mkdirSync(path.join(ws, 'tree/empty'));
    fs.symlinkSync(outside, path.join(ws, 'tree/a/link-out'));
    execFileSync('chown', ['-R', `${uid}:${gid}`, path.join(ws, 'tree')]);
    put(path.join(ws, 'single.txt'), 's');

    expect((await call('POST', `/sessions/${off}/rm`, { body: { file: `${ws}/tree` } })).body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.existsSync(`${ws}/tree/a/b/c.txt`)).toBe(true);

    expect((await call('POST', `/sessions/${on}/rm`, { raw: form({ file: `${ws}/tree` }), contentType: MP })).body.code).toBe(1);
    expect(fs.existsSync(`${ws}/tree`)).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('keep');
    expect((await call('POST', `/sessions/${on}/rm`, { body: { file: `${ws}/single.txt` } })).body.code).toBe(1);
    expect(fs.existsSync(`${ws}/single.txt`)).toBe(false);
    expect((await call('POST', `/sessions/${on}/rm`, { body: { file: `${ws}/gone` } })).body).toEqual({ code: -1, message: '删除失败：文件或文件夹不存在' });
    expect((await call('POST', `/sessions/${on}/rm`, { body: { file: '/..' } })).body).toEqual({ code: -1, message: '不能删除根目录' });
    expect((await logs()).map((l) => l.slice(0, 2))).toEqual([
      ['rm', `${ws}/tree`],
      ['rm', `${ws}/single.txt`],
      ['rm', `${ws}/gone`],
    ]);
    for (const l of lives) l.end();
  });

  it('rename: needs the rename flag; logged as "old -> new"', async () => {
    const { call, on, off, ws, logs, lives } = await world();
    put(path.join(ws, 'old.txt'), 'x');
    const url = (sid: string) => `/sessions/${sid}/rename?oldName=${encodeURIComponent(`${ws}/old.txt`)}&newName=${encodeURIComponent(`${ws}/new.txt`)}`;
    expect((await call('POST', url(off))).body).toEqual({ code: -1, message: '禁止操作' });
    expect(fs.existsSync(`${ws}/old.txt`)).toBe(true);
    expect((await call('POST', url(on))).body.code).toBe(1);
    expect(fs.existsSync(`${ws}/old.txt`)).toBe(false);
    expect(fs.readFileSync(`${ws}/new.txt`, 'utf8')).toBe('x');
    expect((await call('POST', url(on))).body).toEqual({ code: -1, message: '重命名失败：文件或文件夹不存在' });
    expect((await logs()).map((l) => l.slice(0, 2))).toEqual([
      ['rename', `${ws}/old.txt -> ${ws}/new.txt`],
      ['rename', `${ws}/old.txt -> ${ws}/new.txt`],
    ]);
    for (const l of lives) l.end();
  });
});
