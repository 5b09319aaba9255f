import { Descriptions, DetailTabs, formatDateTime, RecordPage, useEndpoints, useQuery, useTranslation } from '@/core';
import { useParams } from 'react-router-dom';
import { FLAGS, KEYS, strategyApi } from '../api';
import { FlagBadge } from './FlagBadge';

/** 授权策略详情: the strategy's name, its eight flags and when it was made (1.3.9's single 基本信息 tab). */
export function StrategyDetail() {
  const { t } = useTranslation('strategy');
  const { strategyId = '' } = useParams();
  const strategies = useEndpoints(strategyApi);
  const record = useQuery({ queryKey: KEYS.one(strategyId), queryFn: () => strategies.get(strategyId) });
  const strategy = record.data;

  return (
    <RecordPage title={strategy?.name ?? t('detail.title')} backTo="/strategy" isPending={record.isPending} error={record.error}>
      {() => (
        <DetailTabs
          tabs={[
            {
              key: 'info',
              label: t('detail.info'),
              content: () => (
                <Descriptions
                  columns={2}
                  items={[
                    { label: t('fields.name'), value: strategy?.name, span: 2 },
                    ...FLAGS.map((flag) => ({ label: t(`fields.${flag}`), value: <FlagBadge on={strategy?.[flag] === true} /> })),
                    { label: t('fields.created'), value: formatDateTime(strategy?.created), span: 2 },
                  ]}
                />
              ),
            },
          ]}
        />
      )}
    </RecordPage>
  );
}
