import { useTranslation } from '@/core';
import { describe, expect, it } from 'vitest';

// Translation keys are typed by the zh-CN file of their namespace (core/i18n/types.ts, each plugin's locales.d.ts).
// This file is the type-level test: `npm test` type-checks it, and each `@ts-expect-error` fails the build the day
// its line compiles. (Parity of en-US with zh-CN is tests/meta/locales.test.ts.)
function useKeysOfEveryKind() {
  const login = useTranslation('login').t;
  login('fields.username');
  // @ts-expect-error not a key of locales/zh-CN/login.json
  login('fields.userName');
  const core = useTranslation('core').t;
  core('status.back');
  // @ts-expect-error not a key of locales/zh-CN/core.json
  core('status.backk');
  // @ts-expect-error a key of another namespace
  core('fields.username');
  // @ts-expect-error no such namespace
  useTranslation('no-such-plugin');
  return [login, core];
}

describe('typed translation keys', () => {
  it('are checked by the type checker (this file compiles only while the bad keys are errors)', () => {
    expect(typeof useKeysOfEveryKind).toBe('function');
  });
});
