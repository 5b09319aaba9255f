import {
  Can,
  DangerButton,
  PageContainer,
  ServerTable,
  useConfirm,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { Badge, Button, makeStyles } from '@fluentui/react-components';
import { isTerminalSession, SESSION_KEYS, type SessionRow, sessionApi } from './api';
import { openSessionWindow, useSessionColumns, useSessionSearch } from './lists';

const useStyles = makeStyles({
  // Unread rows stand out by weight and by the 未读 badge, not by colour alone.
  unread: { fontWeight: 'bold' },
});

/** 历史会话 (screens §3.11): finished sessions, their playback and command count, review marks, delete and clear. */
export function OfflineSessionList() {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const sessions = useEndpoints(sessionApi);
  const table = useTableActions(SESSION_KEYS.offline);
  const confirm = useConfirm();
  const searchFields = useSessionSearch(true);
  const strong = (s: SessionRow, text: string) => (s.reviewed ? text : <span className={styles.unread}>{text}</span>);
  const sessionColumns = useSessionColumns((s) => s.disconnectedTime, strong);
  const canPlay = (s: SessionRow) => s.recording === '1' && isTerminalSession(s);

  const clearAll = async () => {
    const ok = await confirm({ title: t('offline.clearTitle'), message: t('offline.clearMessage'), danger: true });
    if (ok) await table.run(sessions.clear, t('offline.cleared'));
  };

  return (
    <PageContainer>
      <ServerTable<SessionRow>
        tableKey="offline-session"
        title={t('offline.title')}
        queryKey={SESSION_KEYS.offline}
        fetchPage={sessions.page}
        extraParams={{ status: 'disconnected' }}
        getRowId={(s) => s.id}
        rowLabel={(s) => t('offline.select', { ip: s.clientIp })}
        indexColumn
        searchFields={searchFields}
        toolbar={
          <>
            <Can menu="offline-session-reviewed-all">
              <Button onClick={() => table.run(sessions.markAllReviewed, t('offline.marked'))}>{t('offline.markAllRead')}</Button>
            </Can>
            <Can menu="offline-session-clear">
              <DangerButton onClick={clearAll}>{t('offline.clear')}</DangerButton>
            </Can>
          </>
        }
        columns={[
          ...sessionColumns,
          { key: 'closeReason', header: t('fields.closeReason'), render: (s) => s.message || '-' },
          { key: 'commandCount', header: t('fields.commandCount'), render: (s) => String(s.commandCount ?? 0) },
          {
            key: 'reviewed',
            header: t('fields.reviewed'),
            render: (s) =>
              s.reviewed ? (
                t('reviewed.read')
              ) : (
                <Badge appearance="filled" color="brand">
                  {t('reviewed.unread')}
                </Badge>
              ),
          },
        ]}
        rowActions={(s) => [
          {
            key: 'playback',
            label: t('offline.playback'),
            menu: 'offline-session-playback',
            disabled: !canPlay(s),
            onClick: () => openSessionWindow('/term-playback', s.id, 1280, 720),
          },
          s.reviewed
            ? {
                key: 'unread',
                label: t('offline.markUnread'),
                menu: 'offline-session-unreviewed',
                overflow: true,
                onClick: () => table.run(() => sessions.markUnreviewed([s.id]), t('offline.marked')),
              }
            : {
                key: 'read',
                label: t('offline.markRead'),
                menu: 'offline-session-reviewed',
                overflow: true,
                onClick: () => table.run(() => sessions.markReviewed([s.id]), t('offline.marked')),
              },
        ]}
        remove={{ menu: 'offline-session-del', run: sessions.remove, batch: true }}
        batchActions={[
          {
            key: 'read',
            label: t('offline.markRead'),
            menu: 'offline-session-reviewed',
            onClick: (ids) => table.run(() => sessions.markReviewed(ids), t('offline.marked')),
          },
          {
            key: 'unread',
            label: t('offline.markUnread'),
            menu: 'offline-session-unreviewed',
            onClick: (ids) => table.run(() => sessions.markUnreviewed(ids), t('offline.marked')),
          },
        ]}
      />
    </PageContainer>
  );
}
