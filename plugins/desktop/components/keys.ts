/** X11 keysyms (the RFB KeyEvent's key) of the keys the toolbar sends, with the DOM `code` noVNC passes along. */
export const KEY = {
  controlL: { keysym: 0xffe3, code: 'ControlLeft' },
  altL: { keysym: 0xffe9, code: 'AltLeft' },
  shiftL: { keysym: 0xffe1, code: 'ShiftLeft' },
  superL: { keysym: 0xffeb, code: 'MetaLeft' },
  delete: { keysym: 0xffff, code: 'Delete' },
  tab: { keysym: 0xff09, code: 'Tab' },
  escape: { keysym: 0xff1b, code: 'Escape' },
  f4: { keysym: 0xffc1, code: 'F4' },
  printScreen: { keysym: 0xff61, code: 'PrintScreen' },
  backspace: { keysym: 0xff08, code: 'Backspace' },
  r: { keysym: 0x0072, code: 'KeyR' },
  e: { keysym: 0x0065, code: 'KeyE' },
  l: { keysym: 0x006c, code: 'KeyL' },
} as const;

export type Key = (typeof KEY)[keyof typeof KEY];

/** The combinations the toolbar offers; each name is also its label's key in the locale files (`keys.<name>`). */
export const COMBOS = {
  ctrlAltDel: [KEY.controlL, KEY.altL, KEY.delete],
  win: [KEY.superL],
  winR: [KEY.superL, KEY.r],
  winE: [KEY.superL, KEY.e],
  winL: [KEY.superL, KEY.l],
  altTab: [KEY.altL, KEY.tab],
  altF4: [KEY.altL, KEY.f4],
  ctrlEsc: [KEY.controlL, KEY.escape],
  ctrlAltBackspace: [KEY.controlL, KEY.altL, KEY.backspace],
  printScreen: [KEY.printScreen],
} as const satisfies Record<string, readonly Key[]>;

export type ComboName = keyof typeof COMBOS;

export interface KeySink {
  sendKey(keysym: number, code: string, down: boolean): void;
}

/** Presses the keys of a combination in order, then releases them in reverse (as a hand would). */
export function pressCombo(sink: KeySink, combo: readonly Key[]): void {
  for (const key of combo) sink.sendKey(key.keysym, key.code, true);
  for (const key of [...combo].reverse()) sink.sendKey(key.keysym, key.code, false);
}
