import { formatDateTime, type SearchField, type ServerTableColumn, useEndpoints, useFormatDuration, useTranslation } from '@/core';
import { ProtocolBadge, useProtocolOptions } from '@/domain';
import type { ReactNode } from 'react';
import { SESSION_KEYS, type SessionRow, sessionApi } from './api';

/**
 * The search of both session lists (screens §3.10): client IP, user, asset, protocol — every one sent (1.3.9's live
 * list sent only the protocol). The history adds the review state.
 */
export function useSessionSearch(withReviewed: boolean): SearchField[] {
  const { t } = useTranslation('session-audit');
  const sessions = useEndpoints(sessionApi);
  const protocols = useProtocolOptions();
  const fields: SearchField[] = [
    { name: 'clientIp', label: t('fields.clientIp') },
    { name: 'userId', label: t('fields.user'), type: 'select', remoteOptions: { queryKey: SESSION_KEYS.users, load: sessions.userOptions } },
    { name: 'assetId', label: t('fields.asset'), type: 'select', remoteOptions: { queryKey: SESSION_KEYS.assets, load: sessions.assetOptions } },
    { name: 'protocol', label: t('fields.protocol'), type: 'select', options: protocols },
  ];
  if (withReviewed) {
    fields.push({
      name: 'reviewed',
      label: t('fields.reviewed'),
      type: 'radio',
      options: [
        { value: 'false', label: t('reviewed.unread') },
        { value: 'true', label: t('reviewed.read') },
      ],
    });
  }
  return fields;
}

/**
 * Opens a full-window page of this console in a small window of its own, named after the session (1.3.9's openTinyWin).
 * `extra` adds query parameters (the monitor's `protocol`).
 */
export function openSessionWindow(
  page: '/term-monitor' | '/term-playback' | '/guacd-monitor' | '/guacd-playback',
  sessionId: string,
  width: number,
  height: number,
  extra: Record<string, string> = {},
): void {
  const url = `#${page}?${new URLSearchParams({ sessionId, ...extra })}`;
  window.open(url, `${page.slice(1)}-${sessionId}`, `width=${width},height=${height},resizable=yes,scrollbars=no`);
}

/**
 * The columns both session lists open with (screens §3.10–3.11): client IP, user, asset, protocol (the account in its
 * tooltip), connected at, and the duration up to `end` (now for live sessions, the disconnection for history).
 * `mark` dresses the first cell (the history's unread rows).
 */
export function useSessionColumns(end: (s: SessionRow) => string | number | null, mark: (s: SessionRow, text: string) => ReactNode = (_, text) => text): ServerTableColumn<SessionRow>[] {
  const { t } = useTranslation('session-audit');
  const duration = useFormatDuration();
  return [
    { key: 'clientIp', header: t('fields.clientIp'), hideable: false, render: (s) => mark(s, s.clientIp) },
    { key: 'user', header: t('fields.user'), render: (s) => s.creatorName || '-' },
    { key: 'asset', header: t('fields.asset'), render: (s) => s.assetName || '-' },
    {
      key: 'protocol',
      header: t('fields.protocol'),
      render: (s) => (
        <span title={`${s.username}@${s.ip}:${s.port}`}>
          <ProtocolBadge protocol={s.protocol} />
        </span>
      ),
    },
    { key: 'connectedTime', header: t('fields.connectedTime'), render: (s) => formatDateTime(s.connectedTime) },
    { key: 'duration', header: t('fields.duration'), render: (s) => duration(s.connectedTime, end(s)) },
  ];
}
