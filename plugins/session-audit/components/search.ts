import { type SearchField, useEndpoints, useProtocolOptions, useTranslation } from '@/core';
import { SESSION_KEYS, sessionApi } from './api';

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

/** Opens a full-window page of this console in a small window of its own, named after the session (1.3.9's openTinyWin). */
export function openSessionWindow(page: '/term-monitor' | '/term-playback', sessionId: string, width: number, height: number): void {
  const url = `#${page}?sessionId=${encodeURIComponent(sessionId)}`;
  window.open(url, `${page.slice(1)}-${sessionId}`, `width=${width},height=${height},resizable=yes,scrollbars=no`);
}
