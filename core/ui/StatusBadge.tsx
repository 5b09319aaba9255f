import { Badge, type BadgeProps } from '@fluentui/react-components';
import type { ReactNode } from 'react';

export type StatusTone = 'success' | 'error' | 'warning' | 'info' | 'default' | 'processing';

const COLOR: Record<StatusTone, NonNullable<BadgeProps['color']>> = {
  success: 'success',
  error: 'danger',
  warning: 'warning',
  info: 'informative',
  default: 'subtle',
  processing: 'brand',
};

export interface StatusBadgeProps {
  tone: StatusTone;
  children: ReactNode;
}

/** A small coloured status label (online/offline, enabled/disabled …). */
export function StatusBadge({ tone, children }: StatusBadgeProps) {
  return (
    <Badge appearance="tint" shape="rounded" color={COLOR[tone]}>
      {children}
    </Badge>
  );
}
