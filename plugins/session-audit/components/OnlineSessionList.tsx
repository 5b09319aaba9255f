import {
  PageContainer,
  ServerTable,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { Switch } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { isDesktopSession, isTerminalSession, SESSION_KEYS, type SessionRow, sessionApi } from './api';
import { openSessionWindow, useSessionColumns, useSessionSearch } from './lists';
import { useNow } from './useNow';

/** How often the live list reloads while the page is visible and auto-refresh is on. */
export const ONLINE_REFRESH_MS = 5000;

/** Reloads the list every `ONLINE_REFRESH_MS` while `on` and the browser shows the page (a hidden tab asks nothing). */
function useAutoRefresh(on: boolean, reload: () => Promise<void>) {
  useEffect(() => {
    if (!on) return undefined;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, ONLINE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [on, reload]);
}

/** 在线会话 (screens §3.10): who is connected to what right now; watch a session live, or cut it. */
export function OnlineSessionList() {
  const { t } = useTranslation('session-audit');
  const sessions = useEndpoints(sessionApi);
  const table = useTableActions(SESSION_KEYS.online);
  const searchFields = useSessionSearch(false);
  const [autoRefresh, setAutoRefresh] = useState(true);
  const now = useNow(1000);
  const sessionColumns = useSessionColumns(() => now);
  useAutoRefresh(autoRefresh, table.reload);

  return (
    <PageContainer>
      <ServerTable<SessionRow>
        tableKey="online-session"
        title={t('online.title')}
        queryKey={SESSION_KEYS.online}
        fetchPage={sessions.page}
        extraParams={{ status: 'connected' }}
        getRowId={(s) => s.id}
        rowLabel={(s) => t('online.select', { ip: s.clientIp })}
        indexColumn
        searchFields={searchFields}
        toolbar={<Switch label={t('online.autoRefresh')} checked={autoRefresh} onChange={(_, d) => setAutoRefresh(d.checked)} />}
        columns={[
          ...sessionColumns,
        ]}
        rowActions={(s) => [
          {
            key: 'monitor',
            label: t('online.monitor'),
            menu: 'online-session-monitor',
            // Terminals and desktops (VNC, RDP); anything else (1.3.9's other guacd rows) stays disabled.
            disabled: !isTerminalSession(s) && !isDesktopSession(s),
            // The protocol picks the monitor's socket when the page cannot read the session.
            onClick: () => openSessionWindow(isDesktopSession(s) ? '/guacd-monitor' : '/term-monitor', s.id, 1024, 768, { protocol: s.protocol }),
          },
          {
            key: 'disconnect',
            label: t('online.disconnect'),
            menu: 'online-session-disconnect',
            danger: true,
            confirm: { title: t('online.disconnectTitle') },
            onClick: () => table.run(() => sessions.disconnect([s.id]), t('online.disconnected')),
          },
        ]}
        batchActions={[
          {
            key: 'disconnect',
            label: t('online.disconnect'),
            menu: 'online-session-disconnect',
            danger: true,
            confirm: (rows) => ({ title: t('online.disconnectRowsTitle', { count: rows.length }), confirmText: t('online.disconnect') }),
            onClick: (ids) => table.run(() => sessions.disconnect(ids), t('online.disconnected')),
          },
        ]}
      />
    </PageContainer>
  );
}
