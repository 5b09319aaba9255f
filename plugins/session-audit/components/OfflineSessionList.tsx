import {
  Can,
  formatBytes,
  formatDateTime,
  PageContainer,
  ServerTable,
  type ServerTableHandle,
  useCan,
  useConfirm,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { Badge, Button, makeStyles, Menu, MenuButton, MenuItem, MenuList, MenuPopover, MenuTrigger, tokens } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { MoreHorizontalRegular } from '@fluentui/react-icons/svg/more-horizontal';
import { useRef } from 'react';
import { isDesktopSession, isTerminalSession, SESSION_KEYS, type SessionRow, sessionApi } from './api';
import { openSessionWindow, useSessionColumns, useSessionSearch } from './lists';
import { RecordingIncompleteBadge } from './RecordingState';

const useStyles = makeStyles({
  // Unread rows stand out by weight and by the 未读 badge, not by colour alone.
  unread: { fontWeight: 'bold' },
  danger: { color: tokens.colorStatusDangerForeground1, ':hover': { color: tokens.colorStatusDangerForeground1 } },
  reason: { display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalXXS },
  list: { margin: `${tokens.spacingVerticalS} 0`, paddingLeft: tokens.spacingHorizontalXL },
});

/** How many sessions a batch delete's question names; the rest are counted. */
const NAMED = 5;

/**
 * 历史会话 (screens §3.11): finished sessions, their playback and command count, review marks, delete and clear. A
 * delete names the sessions it deletes (user, asset, time); 清空 sits in the toolbar's ⋯ menu and says how many it
 * deletes; both are written to the operation log, and both need keys no built-in role holds.
 */
export function OfflineSessionList() {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const sessions = useEndpoints(sessionApi);
  const table = useTableActions(SESSION_KEYS.offline);
  const confirm = useConfirm();
  const canClear = useCan('offline-session-clear');
  const ref = useRef<ServerTableHandle>(null);
  const searchFields = useSessionSearch(true);
  const strong = (s: SessionRow, text: string) => (s.reviewed ? text : <span className={styles.unread}>{text}</span>);
  const sessionColumns = useSessionColumns((s) => s.disconnectedTime, strong);
  // Terminals (asciicast) and desktops, VNC and RDP (the RFB recording); an empty file has nothing to play.
  const canPlay = (s: SessionRow) => s.recording === '1' && s.recordingSize !== 0 && (isTerminalSession(s) || isDesktopSession(s));
  // The file's size; a 1.3.9 server sends only the flag.
  const recordingText = (s: SessionRow) =>
    s.recording !== '1' || s.recordingSize === 0 ? t('offline.noRecording') : s.recordingSize === undefined ? '-' : formatBytes(s.recordingSize);

  const named = (s: SessionRow) =>
    t('offline.named', { user: s.creatorName || s.creator, asset: s.assetName || s.assetId, ip: s.clientIp, time: formatDateTime(s.connectedTime) });

  // 清空 deletes every finished session, whatever the search shows: the list's total, or the whole history's under a search.
  const clearAll = async (shown: number) => {
    const searching = Object.keys(ref.current?.searchQuery() ?? {}).some((k) => k !== 'status');
    const count = searching ? (await sessions.page({ pageIndex: 1, pageSize: 1, order: '', field: '', status: 'disconnected' })).total : shown;
    const ok = await confirm({ title: t('offline.clearTitle'), message: t('offline.clearMessage', { count }), confirmText: t('offline.clearConfirm'), danger: true });
    if (ok) await table.run(sessions.clear, t('offline.cleared'));
  };

  return (
    <PageContainer>
      <ServerTable<SessionRow>
        ref={ref}
        tableKey="offline-session"
        title={t('offline.title')}
        queryKey={SESSION_KEYS.offline}
        fetchPage={sessions.page}
        extraParams={{ status: 'disconnected' }}
        getRowId={(s) => s.id}
        rowLabel={(s) => t('offline.select', { ip: s.clientIp })}
        indexColumn
        searchFields={searchFields}
        toolbar={({ total }) => (
          <>
            <Can menu="offline-session-reviewed-all">
              <Button onClick={() => table.run(sessions.markAllReviewed, t('offline.marked'))}>{t('offline.markAllRead')}</Button>
            </Can>
            {canClear ? (
              // Out of the way: an item of the ⋯ menu, never a red button beside the search.
              <Menu>
                <MenuTrigger disableButtonEnhancement>
                  <MenuButton appearance="subtle" icon={<MoreHorizontalRegular />}>
                    {t('offline.more')}
                  </MenuButton>
                </MenuTrigger>
                <MenuPopover>
                  <MenuList>
                    <MenuItem className={total === 0 ? undefined : styles.danger} icon={<DeleteRegular />} disabled={total === 0} onClick={() => void clearAll(total)}>
                      {t('offline.clear')}
                    </MenuItem>
                  </MenuList>
                </MenuPopover>
              </Menu>
            ) : null}
          </>
        )}
        columns={[
          ...sessionColumns,
          {
            key: 'closeReason',
            header: t('fields.closeReason'),
            render: (s) => (
              <span className={styles.reason}>
                {s.message || '-'}
                <RecordingIncompleteBadge session={s} />
              </span>
            ),
          },
          { key: 'commandCount', header: t('fields.commandCount'), render: (s) => String(s.commandCount ?? 0) },
          { key: 'recordingSize', header: t('fields.recording'), render: recordingText },
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
            onClick: () =>
              isDesktopSession(s)
                ? openSessionWindow('/guacd-playback', s.id, 1280, 720, { protocol: s.protocol })
                : openSessionWindow('/term-playback', s.id, 1280, 720),
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
          {
            key: 'delete',
            label: t('offline.delete'),
            danger: true,
            menu: 'offline-session-del',
            confirm: { title: t('offline.deleteTitle'), message: t('offline.deleteMessage', { record: named(s) }) },
            onClick: () => table.run(() => sessions.remove([s.id]), t('offline.deleted')),
          },
        ]}
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
          {
            key: 'delete',
            label: t('offline.delete'),
            icon: <DeleteRegular />,
            danger: true,
            menu: 'offline-session-del',
            confirm: (rows) => ({
              title: t('offline.deleteRowsTitle', { count: rows.length }),
              message: (
                <>
                  {t('offline.deleteRowsMessage')}
                  <ul className={styles.list}>
                    {rows.slice(0, NAMED).map((s) => (
                      <li key={s.id}>{named(s)}</li>
                    ))}
                  </ul>
                  {rows.length > NAMED ? t('offline.andMore', { count: rows.length - NAMED }) : null}
                </>
              ),
            }),
            onClick: (ids) => table.run(() => sessions.remove(ids), t('offline.deleted')),
          },
        ]}
      />
    </PageContainer>
  );
}
