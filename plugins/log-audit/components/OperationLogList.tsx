import { formatDateTime, PageContainer, ServerTable, type StatusTone, useEndpoints, useTranslation } from '@/core';
import dayjs from 'dayjs';
import { KEYS, OPERATION_ACTIONS, type OperationAction, type OperationLog, operationLogApi, REFUSAL_REASONS, type RefusalReason } from '../api';

const WIRE_TIME = 'YYYY-MM-DD HH:mm:ss';
/** The time-range filter, as the login log's: since the start of today, or of the day 6 / 29 days ago. */
const RANGES = { today: 0, week: 6, month: 29 } as const;
type Range = keyof typeof RANGES;
const isRange = (v: string): v is Range => v in RANGES;
const sinceQuery = (value: string): Record<string, string> =>
  isRange(value) ? { from: dayjs().subtract(RANGES[value], 'day').startOf('day').format(WIRE_TIME) } : {};

const isAction = (a: string): a is OperationAction => (OPERATION_ACTIONS as readonly string[]).includes(a);
const isReason = (r: string): r is RefusalReason => (REFUSAL_REASONS as readonly string[]).includes(r);

/**
 * 操作日志: the deletions of audit records (who deleted which sessions or log records, or cleared a list, and how many)
 * and the refused operations (a session the access rule refused, a file operation the strategy forbids), newest
 * first. Read-only: no delete, no clear — the server has no such route.
 */
export function OperationLogList() {
  const { t } = useTranslation('log-audit');
  const logs = useEndpoints(operationLogApi);
  const actionLabel = (a: string) => (isAction(a) ? t(`operation.action.${a}`) : a);
  const reasonLabel = (r: string) => (r === '' ? '-' : isReason(r) ? t(`operation.reason.${r}`) : r);

  return (
    <PageContainer>
      <ServerTable<OperationLog>
        tableKey="operation-log"
        title={t('operation.title')}
        queryKey={KEYS.operationLogs}
        fetchPage={logs.page}
        getRowId={(e) => e.id}
        empty={t('operation.empty')}
        searchFields={[
          { name: 'username', label: t('operation.fields.username') },
          { name: 'clientIp', label: t('operation.fields.clientIp') },
          { name: 'action', label: t('operation.fields.action'), type: 'select', options: OPERATION_ACTIONS.map((a) => ({ value: a, label: actionLabel(a) })) },
          {
            name: 'result',
            label: t('operation.fields.result'),
            type: 'select',
            options: [
              { value: 'success', label: t('operation.result.success') },
              { value: 'refused', label: t('operation.result.refused') },
            ],
          },
          {
            name: 'range',
            label: t('operation.fields.range'),
            type: 'select',
            options: (Object.keys(RANGES) as Range[]).map((r) => ({ value: r, label: t(`operation.range.${r}`) })),
            toQuery: sinceQuery,
          },
        ]}
        columns={[
          { key: 'created', header: t('operation.fields.created'), render: (e) => formatDateTime(e.created) },
          { key: 'username', header: t('operation.fields.username'), hideable: false, render: (e) => e.username || '-' },
          { key: 'clientIp', header: t('operation.fields.clientIp'), render: (e) => e.clientIp },
          { key: 'action', header: t('operation.fields.action'), render: (e) => actionLabel(e.action) },
          { key: 'target', header: t('operation.fields.target'), render: (e) => e.target || t('operation.wholeList') },
          { key: 'count', header: t('operation.fields.count'), render: (e) => String(e.count) },
          {
            key: 'result',
            header: t('operation.fields.result'),
            tone: (e): StatusTone => (e.result === 'refused' ? 'error' : 'success'),
            render: (e) => t(e.result === 'refused' ? 'operation.result.refused' : 'operation.result.success'),
          },
          { key: 'reason', header: t('operation.fields.reason'), render: (e) => reasonLabel(e.reason) },
        ]}
      />
    </PageContainer>
  );
}
