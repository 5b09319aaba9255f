import { useTranslation } from '@/core';

/**
 * `t` for the domain widgets' own strings. They live in the kit's namespace (`kit`, keys `ui.*`), which the layouts
 * load before any page renders, so a widget needs no namespace of its own to be loaded first. Typed by
 * locales/zh-CN/kit.json like every other `t`.
 */
export function useDomainT() {
  return useTranslation('kit').t;
}
