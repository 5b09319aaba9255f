import {
  formatDateTime,
  PageContainer,
  ServerTable,
  type ServerTableHandle,
  type StatusTone,
  useCan,
  useConfirm,
  useEndpoints,
  useTableActions,
  useTranslation,
} from '@/core';
import { Tooltip } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import dayjs from 'dayjs';
import { useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { KEYS, type LoginLog, loginLogApi } from '../api';
import { ClearAllMenu } from './ClearAllMenu';
import { RecordList } from './RecordList';
import { parseUserAgent } from './userAgent';

const WIRE_TIME = 'YYYY-MM-DD HH:mm:ss';

/** The time-range filter: logins since the start of today, or of the day 6 / 29 days ago (`from`, the wire's format). */
const RANGES = { today: 0, week: 6, month: 29 } as const;
type Range = keyof typeof RANGES;
const isRange = (v: string): v is Range => v in RANGES;
const sinceQuery = (value: string): Record<string, string> =>
  isRange(value) ? { from: dayjs().subtract(RANGES[value], 'day').startOf('day').format(WIRE_TIME) } : {};

function Browser({ ua }: { ua: string }) {
  const { t } = useTranslation('log-audit');
  const agent = parseUserAgent(ua);
  if (!agent) return <>{t('login.unknown')}</>;
  const label = agent.name === 'terminal' ? t('login.terminal') : [agent.name, agent.version].filter(Boolean).join(' ');
  return (
    <Tooltip content={ua} relationship="description">
      <span>{label}</span>
    </Tooltip>
  );
}

/**
 * 登录日志: every login and failed attempt, newest first; delete (a success's row also ends its login) and clear, each
 * saying what it deletes (the record by name, the whole list by its count) and each written to the operation log.
 */
export function LoginLogList() {
  const { t } = useTranslation('log-audit');
  const logs = useEndpoints(loginLogApi);
  const table = useTableActions(KEYS.loginLogs);
  const confirm = useConfirm();
  const canClear = useCan('login-log-clear');
  const ref = useRef<ServerTableHandle>(null);
  const [params] = useSearchParams();
  const state = params.get('state');
  const named = (l: LoginLog) => t('login.named', { name: l.username, ip: l.clientIp, time: formatDateTime(l.loginTime) });

  // 清空 deletes the whole log, whatever the search shows: the count is the list's total, or the whole log's under a search.
  const clear = async (shown: number) => {
    const searching = Object.keys(ref.current?.searchQuery() ?? {}).length > 0;
    const count = searching ? await logs.total() : shown;
    const ok = await confirm({ title: t('login.clear.title'), message: t('login.clear.message', { count }), confirmText: t('login.clear.confirm'), danger: true });
    if (ok) await table.run(logs.clear, t('login.clear.done'));
  };

  return (
    <PageContainer>
      <ServerTable<LoginLog>
        ref={ref}
        tableKey="login-log"
        title={t('login.title')}
        queryKey={KEYS.loginLogs}
        fetchPage={logs.page}
        getRowId={(l) => l.id}
        rowLabel={(l) => t('login.select', { name: l.username, time: l.loginTime })}
        searchFields={[
          { name: 'username', label: t('login.fields.username') },
          { name: 'clientIp', label: t('login.fields.clientIp') },
          {
            name: 'state',
            label: t('login.fields.state'),
            type: 'select',
            options: [
              { value: '1', label: t('login.state.success') },
              { value: '0', label: t('login.state.failure') },
            ],
            // The dashboard's 登录失败次数 links here with ?state=0.
            initialValue: state === '0' || state === '1' ? state : undefined,
          },
          {
            name: 'range',
            label: t('login.fields.range'),
            type: 'select',
            options: (Object.keys(RANGES) as Range[]).map((r) => ({ value: r, label: t(`login.range.${r}`) })),
            toQuery: sinceQuery,
          },
        ]}
        columns={[
          { key: 'username', header: t('login.fields.username'), hideable: false, render: (l) => l.username },
          { key: 'clientIp', header: t('login.fields.clientIp'), render: (l) => l.clientIp },
          {
            key: 'state',
            header: t('login.fields.state'),
            tone: (l): StatusTone => (l.state === '0' ? 'error' : 'success'),
            render: (l) => t(l.state === '0' ? 'login.state.failure' : 'login.state.success'),
          },
          { key: 'reason', header: t('login.fields.reason'), render: (l) => l.reason },
          { key: 'browser', header: t('login.fields.browser'), render: (l) => <Browser ua={l.clientUserAgent} /> },
          { key: 'loginTime', header: t('login.fields.loginTime'), render: (l) => formatDateTime(l.loginTime) },
          { key: 'logoutTime', header: t('login.fields.logoutTime'), render: (l) => formatDateTime(l.logoutTime) },
        ]}
        rowActions={(l) => [
          {
            key: 'delete',
            label: t('login.delete.action'),
            danger: true,
            menu: 'login-log-del',
            confirm: { title: t('login.delete.rowTitle'), message: t('login.delete.rowMessage', { record: named(l) }) },
            onClick: () => table.run(() => logs.remove([l.id]), t('login.delete.done')),
          },
        ]}
        batchActions={[
          {
            key: 'delete',
            label: t('login.delete.action'),
            icon: <DeleteRegular />,
            danger: true,
            menu: 'login-log-del',
            confirm: (rows) => ({
              title: t('login.delete.title', { count: rows.length }),
              message: <RecordList intro={t('login.delete.message')} names={rows.map(named)} />,
            }),
            onClick: (ids) => table.run(() => logs.remove(ids), t('login.delete.done')),
          },
        ]}
        toolbar={({ total }) =>
          canClear ? <ClearAllMenu label={t('login.clear.action')} disabled={total === 0} onClick={() => void clear(total)} /> : null
        }
      />
    </PageContainer>
  );
}
