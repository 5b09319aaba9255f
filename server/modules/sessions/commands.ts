import type { Db } from '../../db/index.ts';

/*
 * The command index: each command line the user ran, with its offset in the recording (beyond 1.3.9, which named
 * the permission but never built it).
 *
 * What the user typed is not the command: history recall (↑), tab completion and line editing happen in the remote
 * shell, so the keys `ech<Tab> hi<BS>llo` say little. What counts is the line as the terminal shows it when Enter is
 * pressed. So the tracker keeps a model of the current output line only (the text since the last newline, with `\r`,
 * backspace, the cursor moves and erasures readline uses, other escape sequences skipped), and:
 *  - on an Enter in the input (`\r`) it notes the time and waits for the echo of that Enter (the next `\n` of the
 *    output): the line as it stands then is the command line, whatever the typing speed or a paste;
 *  - the prompt is removed: it is what the line showed when the user began typing that command (so any prompt
 *    works), else the text up to the first `$ `, `# `, `% ` or `> ` when the line does not start with it;
 *  - empty lines are skipped, and so is input while a full-screen program (the alternate screen: vim, top, less) runs.
 * Limits: a command longer than the terminal's width, wrapped by readline, may lose its start; password prompts
 * show no echo, so they record nothing. Only the last line is modelled, so output that is not the command line costs
 * an indexOf per chunk, not a parse (the relay must keep the PTY's throughput).
 */

export const MAX_COMMAND = 4096;
/**
 * The modelled line's width: the cursor and the line never go past it (what lies beyond is dropped). Output decides
 * both, so without a bound `\e[4096C` or one endless line grew the line until the process died.
 */
export const MAX_LINE = MAX_COMMAND;
/**
 * The model's work (array elements moved or written) is paid for by the output: each character adds WORK_PER_CHAR,
 * saved up to LINE_WORK. An erase or insert costs up to the line's length, so `\e[2000@` repeated cost 1.7 s of CPU
 * per MB; a line that spends more than it brings is not modelled further, until its newline (no command from it).
 */
const WORK_PER_CHAR = 32;
const LINE_WORK = 16 * MAX_LINE;
const INSERT_CHUNK = 200;
/** Enters waiting for their echo; beyond this a program that never echoes newlines stops counting them. */
const MAX_PENDING = 64;
const ESC = String.fromCharCode(27);
const PRIVATE_MODE = `${ESC}[?`;
/** The alternate screen switched on (h) or off (l). */
const ALT_SCREEN = new RegExp(`${ESC}\\[\\?(?:1049|1047|47)([hl])`, 'g');

/** Where a usual prompt ends (`user@host:~$ `, `# `, `% `, `> `), within its first 200 characters. */
const PROMPT_END = /^.{0,200}?[$#%>](?: |$)/;

type State = 'text' | 'esc' | 'escArg' | 'csi' | 'osc' | 'oscEsc' | 'str' | 'strEsc';

export class CommandTracker {
  private line: string[] = [];
  private cursor = 0;
  private state: State = 'text';
  private csi = '';
  private alt = false;
  /** Offsets (ms) of the Enters not yet echoed. */
  private pending: number[] = [];
  /** The line when the user began typing the current command: its prompt. */
  private prompt: string | null = null;
  /** The prompt of the last command stored. */
  private lastPrompt: string | null = null;
  /** Some Enters of one batch (a paste) found their echo, others still wait. */
  private committedInBatch = false;
  /** Work the current line may still do (see WORK_PER_CHAR); below 0 the line is skipped up to its newline. */
  private credit = LINE_WORK;

  /** The recording offset of the output being read (see `output`). */
  private outputAt = 0;

  constructor(private readonly onCommand: (offsetMs: number, command: string) => void) {}

  input(keys: string, offsetMs: number): void {
    if (this.alt) return;
    // The shell sits at a bare prompt: no earlier Enter still waits for its echo (a program swallowed it).
    if (this.pending.length > 0 && this.lastPrompt !== null && this.text() === this.lastPrompt) this.pending = [];
    for (const ch of keys) {
      if (this.prompt === null && this.pending.length === 0) this.prompt = this.text();
      if (ch === '\r' && this.pending.length < MAX_PENDING) this.pending.push(offsetMs);
    }
  }

  /**
   * `offsetMs`: when this output was recorded. A command is indexed at its Enter, or at its echo when the echo came
   * later (a slow host, a busy relay), so that a seek to the command shows it typed out in full.
   */
  output(data: string, offsetMs = 0): void {
    this.outputAt = offsetMs;
    let rest = data;
    // Waiting for an Enter's echo: every character counts until the last pending Enter found its newline.
    while (this.pending.length > 0 && rest.length > 0) {
      const nl = rest.indexOf('\n');
      if (nl < 0) {
        this.feed(rest);
        return;
      }
      this.feed(rest.slice(0, nl + 1));
      rest = rest.slice(nl + 1);
    }
    if (rest.length === 0) return;
    const last = rest.lastIndexOf('\n');
    if (last < 0) {
      this.feed(rest);
      return;
    }
    // Plain output: only the alternate-screen switches and the text after its last newline matter.
    if (rest.includes(PRIVATE_MODE)) for (const m of rest.matchAll(ALT_SCREEN)) this.alt = m[1] === 'h';
    this.newline();
    this.state = 'text';
    this.feed(rest.slice(last + 1));
  }

  private text(): string {
    return this.line.join('');
  }

  private newline(): void {
    if (this.credit < 0) {
      // The line was not modelled to its end: its Enter, if any, gives no command.
      this.pending.shift();
      this.credit = LINE_WORK;
    } else if (this.pending.length > 0 && !this.alt) {
      // After the first of several Enters (a paste), a newline is an Enter's echo only on a prompt line: the
      // others are the output of the commands before it.
      if (!this.committedInBatch || this.looksLikePrompt()) {
        this.commit(Math.max(this.pending.shift() as number, this.outputAt));
        this.committedInBatch = this.pending.length > 0;
      }
    } else if (this.pending.length > 0) this.pending.shift();
    this.line = [];
    this.cursor = 0;
    this.prompt = null;
  }

  private looksLikePrompt(): boolean {
    const shown = this.text();
    return (this.lastPrompt !== null && shown.startsWith(this.lastPrompt)) || PROMPT_END.test(shown);
  }

  private commit(offsetMs: number): void {
    const shown = this.text();
    if (this.prompt) this.lastPrompt = this.prompt;
    let command: string;
    if (this.prompt && shown.startsWith(this.prompt)) command = shown.slice(this.prompt.length);
    else {
      const m = PROMPT_END.exec(shown);
      command = m ? shown.slice(m[0].length) : shown;
    }
    command = command.trim().slice(0, MAX_COMMAND);
    if (command) this.onCommand(offsetMs, command);
  }

  private put(ch: string): void {
    if (this.cursor >= MAX_LINE) return;
    this.spend(this.cursor - this.line.length);
    while (this.line.length < this.cursor) this.line.push(' ');
    this.line[this.cursor] = ch;
    this.cursor++;
  }

  private spend(work: number): void {
    if (work > 0) this.credit -= work;
  }

  private feed(s: string): void {
    let rest = s;
    while (rest.length > 0) {
      if (this.credit < 0) {
        // Over its budget: only the newline that ends the line matters (escape state starts over after it).
        const nl = rest.indexOf('\n');
        if (nl < 0) return;
        this.state = 'text';
        this.newline();
        rest = rest.slice(nl + 1);
      } else rest = this.parse(rest);
    }
  }

  /** Models `s`; returns what is left of it when the line ran out of budget ('' when all was read). */
  private parse(s: string): string {
    let at = 0;
    for (const ch of s) {
      at += ch.length;
      this.credit = Math.min(LINE_WORK, this.credit + WORK_PER_CHAR);
      switch (this.state) {
        case 'text':
          if (ch === '\x1b') this.state = 'esc';
          else if (ch === '\n') this.newline();
          else if (ch === '\r') this.cursor = 0;
          else if (ch === '\b') this.cursor = Math.max(0, this.cursor - 1);
          else if (ch === '\t') this.cursor = Math.min(MAX_LINE, (Math.floor(this.cursor / 8) + 1) * 8);
          else if (ch >= ' ' && ch !== '\x7f') this.put(ch);
          break;
        case 'esc':
          if (ch === '[') {
            this.state = 'csi';
            this.csi = '';
          } else if (ch === ']') this.state = 'osc';
          else if (ch === 'P' || ch === 'X' || ch === '^' || ch === '_') this.state = 'str';
          else if (ch >= ' ' && ch <= '/') this.state = 'escArg';
          else this.state = 'text';
          break;
        case 'escArg':
          this.state = 'text';
          break;
        case 'csi':
          if (ch >= '@' && ch <= '~') {
            this.state = 'text';
            this.applyCsi(ch);
          } else if (this.csi.length < 32) this.csi += ch;
          break;
        case 'osc':
          if (ch === '\x07') this.state = 'text';
          else if (ch === '\x1b') this.state = 'oscEsc';
          break;
        case 'oscEsc':
          this.state = ch === '\\' ? 'text' : 'osc';
          break;
        case 'str':
          if (ch === '\x1b') this.state = 'strEsc';
          break;
        case 'strEsc':
          this.state = ch === '\\' ? 'text' : 'str';
          break;
      }
      if (this.credit < 0) return s.slice(at);
    }
    return '';
  }

  private applyCsi(final: string): void {
    const p = this.csi;
    const n = Number.parseInt(p, 10);
    const count = Number.isFinite(n) && n > 0 ? Math.min(n, MAX_LINE) : 1;
    switch (final) {
      case 'K':
        if (p === '' || p === '0') this.line.length = Math.min(this.line.length, this.cursor);
        else if (p === '1') {
          this.spend(Math.min(this.cursor + 1, this.line.length));
          for (let i = 0; i <= this.cursor && i < this.line.length; i++) this.line[i] = ' ';
        }
        else if (p === '2') this.line = [];
        break;
      case 'C':
        this.cursor = Math.min(MAX_LINE, this.cursor + count);
        break;
      case 'D':
        this.cursor = Math.max(0, this.cursor - count);
        break;
      case 'G':
        this.cursor = count - 1;
        break;
      case 'P':
        this.spend(this.line.length - this.cursor);
        this.line.splice(this.cursor, count);
        break;
      case '@':
        if (this.cursor < this.line.length) {
          this.spend(this.line.length - this.cursor + count);
          this.line.splice(this.cursor, 0, ...Array<string>(Math.min(count, MAX_LINE - this.cursor)).fill(' '));
          if (this.line.length > MAX_LINE) this.line.length = MAX_LINE;
        }
        break;
      case 'X':
        this.spend(Math.min(count, this.line.length - this.cursor));
        for (let i = this.cursor; i < this.cursor + count && i < this.line.length; i++) this.line[i] = ' ';
        break;
      case 'H':
      case 'f':
      case 'J':
        // The cursor left the line (clear, full-screen drawing): what follows is a new line.
        if (final !== 'J' || p === '2' || p === '3') {
          this.line = [];
          this.cursor = 0;
        }
        break;
      case 'h':
      case 'l':
        if (p === '?1049' || p === '?1047' || p === '?47') this.alt = final === 'h';
        break;
    }
  }
}

/** Writes the index in batches (one transaction per second at most, not one per key) and keeps `commandCount`. */
export class CommandLog {
  private batch: { offsetMs: number; command: string; created: number }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly sessionId: string,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
    private readonly delayMs = 1000,
  ) {}

  add(offsetMs: number, command: string): void {
    this.batch.push({ offsetMs, command, created: this.now() });
    this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Writes what is buffered; resolves when every batch so far is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const rows = this.batch;
    this.batch = [];
    if (rows.length > 0) {
      this.writing = this.writing.then(() =>
        this.db
          .transaction()
          .execute(async (trx) => {
            // Bounded statements (SQLite limits the variables of one), however much a paste left in the batch.
            for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
              await trx
                .insertInto('sessionCommands')
                .values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ sessionId: this.sessionId, ...r })))
                .execute();
            }
            await trx
              .updateTable('sessions')
              .set((eb) => ({ commandCount: eb('commandCount', '+', rows.length) }))
              .where('id', '=', this.sessionId)
              .execute();
          })
          .catch(this.onError),
      );
    }
    return this.writing;
  }
}
