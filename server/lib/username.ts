import { z } from 'zod';

/** Longest username (characters, after normalisation). */
export const MAX_USERNAME = 64;

/**
 * Characters a username may not hold: control (Cc: NUL, newlines, escapes), format (Cf: zero-width spaces and
 * joiners, bidi overrides, BOM), line/paragraph separators, and surrogates: with the `u` flag a well-formed pair is one astral code point, so only a lone one matches.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/** Whether a name holds a character no name may hold (the class above); asset names and tags follow the same rule. */
export const hasForbiddenCharacter = (name: string) => FORBIDDEN.test(name);

/** The stored form: NFC, so "é" typed composed or decomposed is the same account. */
export const normaliseUsername = (name: string) => name.normalize('NFC');

/**
 * The uniqueness and login key (`users.username_key`): NFKC, so compatibility look-alikes (full-width "ＡＤＭＩＮ",
 * ligatures, circled letters) fold onto their plain form, then case-folded (Unicode-aware, unlike SQLite's `lower()`),
 * so "Admin", "ADMIN" and "ＡＤＭＩＮ" are one account. Upper then lower case approximates full case folding
 * ("ß" and "SS" meet, final "ς" and "σ" too); the last NFKC recomposes what the case mapping split.
 * Migration 012 recomputed the stored keys with this rule: change it only with a migration.
 */
export const usernameKey = (name: string) => name.trim().normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

/** Why a (trimmed) username is refused, or undefined (zod-style messages, as the other input fields). */
export function usernameProblem(name: string): string | undefined {
  if (name === '') return 'required';
  if (FORBIDDEN.test(name)) return 'no control, zero-width/format characters or lone surrogates allowed';
  if ([...name].length > MAX_USERNAME) return `at most ${MAX_USERNAME} characters`;
  return undefined;
}

/** A username in a request body: trimmed, refused when it holds forbidden characters, NFC-normalised. */
export const zUsername = z
  .string()
  .max(MAX_USERNAME * 4, `at most ${MAX_USERNAME} characters`)
  .transform((v, ctx) => {
    const name = normaliseUsername(v.trim());
    const problem = usernameProblem(name);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return name;
  });
