import { StatusBadge, useTranslation } from '@/core';

/** One flag of a strategy as 1.3.9 shows it: a green 开启 or a red 关闭. */
export function FlagBadge({ on }: { on: boolean }) {
  const { t } = useTranslation('strategy');
  return <StatusBadge tone={on ? 'success' : 'error'}>{t(on ? 'flag.on' : 'flag.off')}</StatusBadge>;
}
