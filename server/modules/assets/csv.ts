import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CsvError, parse } from 'csv-parse';
import { z } from 'zod';
import type { Db } from '../../db/index.ts';
import type { AccountType, Protocol } from '../../db/schema.ts';
import { fail } from '../../http/envelope.ts';
import { type Deps, type RouteDef, route } from '../../http/routes.ts';
import { uuid } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { formatDate } from '../../lib/time.ts';
import { privateKeyProblem } from '../credentials/index.ts';
import { checkKeyOffLoop, isCostly } from '../credentials/index.ts';
import { both, zhOf } from '../../lib/i18n.ts';
import { isHost } from '../../../shared/host.ts';
import { hasForbiddenCharacter } from '../../lib/username.ts';
import { LIMITS, NAME_CHARS_MSG, parseTags, type TagProblem } from './fields.ts';
import { PROTOCOLS } from '../../../shared/protocols.ts';
import { allMatching, exportAssets } from './list.ts';
import { ensureTags, MSG, NOT_CHECKED } from './store.ts';

/*
 * CSV import and export (contract §2.5). One format both ways: no header row, one asset per record, columns
 *   name, protocol, ip, port, username, password, privateKey, passphrase, description[, tags]
 * with tags separated by `|`. UTF-8, a leading BOM tolerated (the export writes one, for spreadsheets).
 */

export const COLUMNS = ['name', 'protocol', 'ip', 'port', 'username', 'password', 'privateKey', 'passphrase', 'description', 'tags'] as const;
/** Largest CSV file the import takes. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
/** Most records one import takes; a larger file is refused as soon as its parse reaches the next one. */
export const MAX_IMPORT_ROWS = 10_000;
/** Row errors the answer's `data` lists (each row still carries its own in `rows`); `errorCount` counts them all. */
export const MAX_REPORTED_ERRORS = 500;
/** Keys with a bcrypt passphrase one import opens (each one costs a worker most of a second); further rows are refused. */
export const MAX_IMPORT_COSTLY_KEYS = 20;
/**
 * Bytes of the file parsed at a time: csv-parse turns a piece into records in one go (≈ 400 records here, a few ms;
 * 64 KiB pieces held the event loop ≈ 50–100 ms each on a busy machine).
 */
export const CSV_PIECE_BYTES = 8 * 1024;
/** Records parsed, checked or inserted between two yields to the event loop. */
const BATCH = 500;

const IMPORT_MSG = {
  noFile: '请选择要导入的CSV文件（表单字段 file）',
  notUtf8: 'CSV文件须为UTF-8编码',
  empty: 'CSV数据为空',
  malformed: (line: number, reason: string) => `CSV格式错误：第${line}行，${reason}`,
  tooManyRows: (max: number) => both(`CSV文件超过 ${max} 行，请分批导入`, `file: the CSV has more than ${max} rows: import it in parts`),
};

const ROW_MSG = {
  tooFew: (n: number) => `列数不足：需要9列（第10列标签可选），只有${n}列`,
  tooMany: (n: number) => `列数过多：最多10列，实际${n}列`,
  nameEmpty: '资产名称不能为空',
  nameChars: `资产名称${NAME_CHARS_MSG}`,
  tooLong: (what: string, max: number) => `${what}过长：最多${max}个字符`,
  protocol: (p: string) => `协议无效：「${p}」，应为 ${PROTOCOLS.join('、')} 之一`,
  ipEmpty: '主机地址不能为空',
  ipBad: '主机地址不是正确的主机名或IP地址',
  port: (p: string) => `端口无效：「${p}」，应为1–65535`,
  duplicate: (name: string, row: number) => `资产名称「${name}」与第${row}行重复`,
  costlyKeys: (max: number) => `每次导入最多校验 ${max} 个带密码的 OpenSSH 私钥，请分批导入`,
  tag: (p: TagProblem) =>
    p.kind === 'count'
      ? `标签过多：最多${LIMITS.tags}个`
      : p.kind === 'long'
        ? `标签过长：最多${LIMITS.tag}个字符（${p.tag.slice(0, 20)}…）`
        : p.kind === 'characters'
          ? `标签${NAME_CHARS_MSG}`
          : `标签不能包含「|」：${p.tag}`,
};

/** One record of the file as the answer shows it; secrets never appear in it. */
export interface ImportRow {
  /** 1-based line number where the record starts. */
  row: number;
  name: string;
  protocol: string;
  ip: string;
  /** null when the port column is not a port. */
  port: number | null;
  username: string;
  tags: string[];
  error: string | null;
}

/** A good row, ready to store. */
interface Candidate {
  name: string;
  protocol: Protocol;
  ip: string;
  port: number;
  accountType: AccountType;
  username: string;
  password: string | null;
  privateKey: string | null;
  passphrase: string | null;
  description: string;
  tags: string[];
}

export interface ImportAnswer {
  successCount: number;
  errorCount: number;
  /** Row number → error, as 1.3.9 (which keyed it by record index). */
  data: Record<string, string>;
  rows: ImportRow[];
}

/**
 * The records of the file with the line each starts on. Malformed CSV (an unclosed quote…) refuses the file, and so
 * does a file of more than MAX_IMPORT_ROWS records: the parse runs over the text in pieces, yielding to the event
 * loop between them, and stops at the first record over the cap.
 */
export async function readCsv(bytes: Buffer): Promise<{ line: number; fields: string[] }[]> {
  // Checked natively, without building the text: the text is decoded piece by piece as the parse needs it, so a file
  // refused at the cap costs only the pieces before it.
  if (!isUtf8(bytes)) throw fail(IMPORT_MSG.notUtf8);
  const pieces = function* () {
    const decoder = new TextDecoder('utf-8');
    // One record delimiter, so csv-parse counts lines plainly (CR LF from Windows, a lone CR from old Macs); a CR at
    // the end of one piece and its LF at the start of the next are one line break.
    let afterCr = false;
    const lines = (decoded: string) => {
      const text = afterCr && decoded.startsWith('\n') ? decoded.slice(1) : decoded;
      if (text !== '') afterCr = text.endsWith('\r');
      return text.replace(/\r\n?/g, '\n');
    };
    for (let at = 0; at < bytes.length; at += CSV_PIECE_BYTES) yield lines(decoder.decode(bytes.subarray(at, at + CSV_PIECE_BYTES), { stream: true }));
    yield lines(decoder.decode());
  };
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, record_delimiter: '\n', info: true });
  const records: { line: number; fields: string[] }[] = [];
  try {
    // With `info: true` each record comes as {record, info}; the library's types only know plain string[] here.
    for await (const item of Readable.from(pieces()).pipe(parser) as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const { record, info } = item;
      if (records.length >= MAX_IMPORT_ROWS) {
        parser.destroy();
        throw fail(IMPORT_MSG.tooManyRows(MAX_IMPORT_ROWS));
      }
      // info.lines is where a record ends; quoted fields may span lines.
      records.push({ line: info.lines - record.reduce((n, f) => n + f.split('\n').length - 1, 0), fields: record });
      if (records.length % 200 === 0) await nextTurn();
    }
  } catch (err) {
    if (err instanceof CsvError) throw fail(IMPORT_MSG.malformed((err as CsvError & { lines?: number }).lines ?? 0, err.message));
    throw err;
  }
  return records;
}

const orEmpty = (v: string | undefined) => (v === undefined || v === '-' ? '' : v);

/** Checks one record; the row for the answer, and what to store when it is good. */
export function checkRecord(line: number, fields: readonly string[]): { row: ImportRow; candidate?: Candidate } {
  // The columns the export writes carry its formula guard; the secret columns (written empty) are read as given.
  const exported = (i: number) => (fields[i] === undefined ? undefined : unguardFormula(fields[i]));
  const [name = '', protocol = '', ip = '', port = '', username = ''] = [0, 1, 2, 3, 4].map((i) => exported(i)?.trim());
  const tagsField = exported(9) ?? '';
  const parsedTags = parseTags(tagsField.split('|'));
  const portNumber = /^\d{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535 ? Number(port) : null;
  const row: ImportRow = { row: line, name, protocol, ip, port: portNumber, username, tags: 'tags' in parsedTags ? parsedTags.tags : [], error: null };
  const [password = '', privateKey = '', passphrase = ''] = [5, 6, 7].map((i) => orEmpty(fields[i]));
  const description = orEmpty(exported(8));
  const lengthProblem = (
    [
      ['资产名称', name, LIMITS.name],
      ['账户', username, LIMITS.username],
      ['密码', password, LIMITS.password],
      ['私钥', privateKey, LIMITS.privateKey],
      ['私钥密码', passphrase, LIMITS.passphrase],
      ['备注', description, LIMITS.description],
    ] as const
  ).find(([, v, max]) => [...v].length > max);

  const error =
    fields.length < 9
      ? ROW_MSG.tooFew(fields.length)
      : fields.length > COLUMNS.length
        ? ROW_MSG.tooMany(fields.length)
        : name === ''
          ? ROW_MSG.nameEmpty
          : hasForbiddenCharacter(name)
            ? ROW_MSG.nameChars
            : !(PROTOCOLS as readonly string[]).includes(protocol)
              ? ROW_MSG.protocol(protocol)
              : ip === ''
                ? ROW_MSG.ipEmpty
                : !isHost(ip) || ip.length > LIMITS.ip
                  ? ROW_MSG.ipBad
                  : portNumber === null
                    ? ROW_MSG.port(port)
                    : lengthProblem
                      ? ROW_MSG.tooLong(lengthProblem[0], lengthProblem[2])
                      : 'problem' in parsedTags
                        ? ROW_MSG.tag(parsedTags.problem)
                        : null;
  // As 1.3.9: a private key makes it a key account (the password is then not kept), else a password account. The key
  // must be one ssh2 can use, with its passphrase (the credentials' rule, credentials/account.ts).
  const accountType: AccountType = privateKey !== '' ? 'private-key' : 'custom';
  const keyProblem = !error && accountType === 'private-key' ? privateKeyProblem(privateKey, passphrase || undefined) : null;
  const keyError = keyProblem === null ? null : zhOf(keyProblem);
  if (error || keyError) return { row: { ...row, error: error ?? keyError } };
  return {
    row,
    candidate: {
      name,
      protocol: protocol as Protocol,
      ip,
      port: portNumber!,
      accountType,
      username,
      password: accountType === 'custom' && password !== '' ? password : null,
      privateKey: accountType === 'private-key' ? privateKey : null,
      passphrase: accountType === 'private-key' && passphrase !== '' ? passphrase : null,
      description: description.trim(),
      tags: 'tags' in parsedTags ? parsedTags.tags : [],
    },
  };
}

/** Names among these that assets already carry. */
async function takenNames(db: Db, names: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db
      .selectFrom('assets')
      .select('name')
      .where('name', 'in', names.slice(i, i + 500))
      .execute();
    for (const r of rows) taken.add(r.name);
  }
  return taken;
}

/**
 * Checks every record, then the names against the file's earlier rows and the database, and (unless `dryRun`)
 * stores the good rows, BATCH at a time, each batch in its own short transaction with its names checked inside it
 * (a name taken meanwhile becomes that row's error), yielding to the event loop between batches. The answer is the
 * same either way; its `data` lists at most MAX_REPORTED_ERRORS errors.
 */
export async function importCsv(deps: { db: Db; box: SecretBox; now: number; owner: string }, bytes: Buffer, dryRun: boolean): Promise<ImportAnswer> {
  const records = await readCsv(bytes);
  if (records.length === 0) throw fail(IMPORT_MSG.empty);
  const checked: ReturnType<typeof checkRecord>[] = [];
  let costly = 0;
  for (const r of records) {
    // A key whose passphrase runs bcrypt is opened in a worker (credentials/key-check.ts), a few per import.
    const [key = '', passphrase = ''] = [6, 7].map((i) => orEmpty(r.fields[i]));
    if (key !== '' && isCostly(key, passphrase || undefined)) {
      if (++costly > MAX_IMPORT_COSTLY_KEYS) {
        // The row as the answer shows it (its key left out, never opened), refused.
        const { row } = checkRecord(r.line, [...r.fields.slice(0, 6), '', '', ...r.fields.slice(8)]);
        checked.push({ row: { ...row, error: ROW_MSG.costlyKeys(MAX_IMPORT_COSTLY_KEYS) } });
        continue;
      }
      await checkKeyOffLoop(key, passphrase);
    }
    checked.push(checkRecord(r.line, r.fields));
    if (checked.length % BATCH === 0) await nextTurn();
  }
  const firstRow = new Map<string, number>();
  for (const c of checked) {
    if (!c.candidate) continue;
    const earlier = firstRow.get(c.candidate.name);
    if (earlier !== undefined) {
      c.row.error = ROW_MSG.duplicate(c.candidate.name, earlier);
      c.candidate = undefined;
    } else firstRow.set(c.candidate.name, c.row.row);
  }

  const good = checked.filter((c) => c.candidate);
  for (let i = 0; i < good.length; i += BATCH) {
    const batch = good.slice(i, i + BATCH);
    const store = async (trx: Db) => {
      const taken = await takenNames(trx, batch.map((c) => c.candidate!.name));
      for (const c of batch) {
        if (taken.has(c.candidate!.name)) {
          c.row.error = MSG.nameTaken(c.candidate!.name);
          c.candidate = undefined;
        }
      }
      if (!dryRun) await insertAll(trx, deps, batch.flatMap((c) => (c.candidate ? [c.candidate] : [])));
    };
    if (dryRun) await store(deps.db);
    else await deps.db.transaction().execute(store);
    await nextTurn();
  }

  const rows = checked.map((c) => c.row);
  const errors = rows.filter((r) => r.error !== null);
  return {
    successCount: rows.length - errors.length,
    errorCount: errors.length,
    data: Object.fromEntries(errors.slice(0, MAX_REPORTED_ERRORS).map((r) => [String(r.row), r.error!])),
    rows,
  };
}

async function insertAll(trx: Db, deps: { box: SecretBox; now: number; owner: string }, candidates: readonly Candidate[]): Promise<void> {
  const { box, now, owner } = deps;
  const seal = (v: string | null) => (v === null ? null : box.encrypt(v));
  const assets = candidates.map((c) => ({
    id: uuid(),
    name: c.name,
    protocol: c.protocol,
    ip: c.ip,
    port: c.port,
    accountType: c.accountType,
    username: c.username,
    password: seal(c.password),
    privateKey: seal(c.privateKey),
    passphrase: seal(c.passphrase),
    credentialId: null,
    accessGatewayId: null,
    description: c.description,
    ...NOT_CHECKED,
    created: now,
    lastAccessTime: null,
    owner,
  }));
  // 18 columns × 500 rows stays far below SQLite's bound-parameter limit.
  for (let i = 0; i < assets.length; i += 500) await trx.insertInto('assets').values(assets.slice(i, i + 500)).execute();
  const tagIds = await ensureTags(trx, [...new Set(candidates.flatMap((c) => c.tags))]);
  const links = candidates.flatMap((c, i) => c.tags.map((t) => ({ assetId: assets[i]!.id, tagId: tagIds.get(t)! })));
  for (let i = 0; i < links.length; i += 1000) await trx.insertInto('assetTags').values(links.slice(i, i + 1000)).execute();
}

/**
 * Formula injection (OWASP "CSV Injection"): a spreadsheet runs a cell that starts with = + - @ tab or CR (and some,
 * with a locale whose argument separator is ';', one that starts with ';'), so the export writes such a cell with a
 * leading apostrophe, which spreadsheets show as text. A leading '-' is guarded too, although a negative number or a
 * "- note" is usually harmless: "-1+cmd|…" is not, and the import takes the apostrophe off again, so nothing is lost.
 * A value already made of apostrophes then a trigger ("'=x") gets one more, so that export → import gives back
 * exactly what was stored.
 */
const FORMULA = /^'*[=+\-@;\t\r]/;
const guardFormula = (v: string) => (FORMULA.test(v) ? `'${v}` : v);
/** The import's inverse of `guardFormula`: one apostrophe off a cell that starts with apostrophes then a trigger. */
const unguardFormula = (v: string) => (v.startsWith("'") && FORMULA.test(v) ? v.slice(1) : v);

/** One CSV field: guarded against formulas, and always quoted (RFC 4180), so no cell is ever read as more than text. */
const csvField = (raw: string) => `"${guardFormula(raw).replaceAll('"', '""')}"`;

/** The export: the import's columns, secrets left empty. BOM + CRLF, so spreadsheets open it as UTF-8. */
export function toCsv(assets: readonly { name: string; protocol: string; ip: string; port: number; username: string; description: string; tags: readonly string[] }[]): string {
  const lines = assets.map((a) => [a.name, a.protocol, a.ip, String(a.port), a.username, '', '', '', a.description, a.tags.join('|')].map(csvField).join(','));
  return `\uFEFF${lines.map((l) => `${l}\r\n`).join('')}`;
}

export const csvRoutes = ({ db, box, clock }: Deps): RouteDef[] => [
  route({
    method: 'POST',
    path: '/assets/import',
    allow: 'granted',
    upload: { maxFiles: 1, maxFileBytes: MAX_IMPORT_BYTES },
    query: z.object({ dryRun: z.enum(['true', 'false'], { message: 'expected true or false' }).optional() }),
    handler: async ({ query, req, principal }) => {
      const file = req.uploads.find((f) => f.field === 'file');
      if (!file) throw fail(IMPORT_MSG.noFile);
      return importCsv({ db, box, now: clock.now(), owner: principal.user.id }, file.data, query.dryRun === 'true');
    },
  }),

  route({
    method: 'GET',
    path: '/assets/export',
    allow: 'granted',
    // A download: the console opens it with the token in the query (`X-Auth-Token`, contract §1.3).
    query: exportAssets,
    handler: async ({ query, reply }) => {
      const csv = toCsv(await allMatching(db, query));
      const stamp = formatDate(clock.now()).replace(/[-:]/g, '').replace(' ', '-');
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="assets-${stamp}.csv"`)
        .header('cache-control', 'no-store')
        .send(csv);
      return reply;
    },
  }),
];
