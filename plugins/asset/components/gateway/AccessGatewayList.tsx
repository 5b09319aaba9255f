import {
  formatDateTime,
  PageContainer,
  type PageResult,
  ServerTable,
  StatusBadge,
  useBus,
  useEndpoints,
  useQueryClient,
  useRecordDialog,
  useConfirm,
  useTableActions,
  useTranslation,
} from '@/core';
import { Caption1, makeStyles, Spinner, Tooltip, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { GATEWAY_KEYS, type GatewayRow, type GatewayState, gatewayApi, isKeyLogin } from './api';
import { GatewayFormDialog } from './GatewayFormDialog';

const useStyles = makeStyles({
  status: { display: 'flex', flexDirection: 'column', alignItems: 'flex-start', rowGap: tokens.spacingVerticalXXS },
  message: {
    color: tokens.colorNeutralForeground3,
    maxWidth: '240px',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});

/** 接入网关: SSH jump hosts, their live connection state, and a connection test that runs a fresh handshake. */
export function AccessGatewayList() {
  const { t } = useTranslation('asset');
  const styles = useStyles();
  const gateways = useEndpoints(gatewayApi);
  const table = useTableActions(GATEWAY_KEYS.list);
  const dialog = useRecordDialog();
  const client = useQueryClient();
  const bus = useBus();
  const [testing, setTesting] = useState<ReadonlySet<string>>(new Set());
  const confirm = useConfirm();

  // Trusting another host key: the pin is dropped and the next connection records the host's. The server lets only
  // the gateway's owner or the super admin; anyone else sees its refusal.
  const trust = async (g: GatewayRow) => {
    if (!(await confirm({ title: t('gateway.trust.action'), message: t('gateway.trust.confirm', { name: g.name }) }))) return;
    try {
      await gateways.trustHostKey(g.id);
      bus.emit('notify', { intent: 'success', message: t('gateway.trust.done', { name: g.name }) });
      await client.invalidateQueries({ queryKey: GATEWAY_KEYS.one(g.id) });
    } catch {
      // The API client has already shown the server's refusal.
    }
  };

  // The test's outcome goes into every cached page holding the row, so the row shows it at once; the next reload
  // brings the server's own view.
  const showState = (id: string, state: GatewayState) =>
    client.setQueriesData<PageResult<GatewayRow>>({ queryKey: GATEWAY_KEYS.list }, (page) =>
      page ? { ...page, items: page.items.map((g) => (g.id === id ? { ...g, connected: state.connected, message: state.message } : g)) } : page,
    );

  const test = async (g: GatewayRow) => {
    setTesting((s) => new Set(s).add(g.id));
    try {
      const state = await gateways.reconnect(g.id);
      showState(g.id, state);
      bus.emit(
        'notify',
        state.connected
          ? { intent: 'success', message: t('gateway.test.connected', { name: g.name }) }
          : { intent: 'error', message: t('gateway.test.failed', { name: g.name, message: state.message }) },
      );
    } catch {
      // The API client has already shown the server's refusal.
    } finally {
      setTesting((s) => {
        const next = new Set(s);
        next.delete(g.id);
        return next;
      });
    }
  };

  const status = (g: GatewayRow) => {
    if (testing.has(g.id)) return <Spinner size="extra-tiny" label={t('gateway.status.testing')} />;
    const badge = (
      <StatusBadge tone={g.connected ? 'success' : 'default'}>{t(g.connected ? 'gateway.status.connected' : 'gateway.status.disconnected')}</StatusBadge>
    );
    if (!g.message) return badge;
    return (
      <div className={styles.status}>
        {badge}
        <Tooltip content={g.message} relationship="description">
          <Caption1 className={styles.message}>{g.message}</Caption1>
        </Tooltip>
      </div>
    );
  };

  return (
    <PageContainer>
      <ServerTable<GatewayRow>
        tableKey="access-gateway"
        title={t('gateway.list.title')}
        queryKey={GATEWAY_KEYS.list}
        fetchPage={gateways.page}
        getRowId={(g) => g.id}
        rowLabel={(g) => t('gateway.list.select', { name: g.name })}
        searchFields={[
          { name: 'name', label: t('gateway.fields.name') },
          { name: 'ip', label: t('gateway.fields.host') },
        ]}
        columns={[
          { key: 'name', header: t('gateway.fields.name'), sortField: 'name', hideable: false, render: (g) => g.name },
          { key: 'ip', header: t('gateway.fields.host'), sortField: 'ip', render: (g) => g.ip },
          { key: 'port', header: t('gateway.fields.port'), render: (g) => g.port },
          {
            key: 'accountType',
            header: t('gateway.fields.accountType'),
            render: (g) => t(isKeyLogin(g.accountType) ? 'gateway.accountType.privateKey' : 'gateway.accountType.custom'),
            tone: (g) => (isKeyLogin(g.accountType) ? 'success' : 'info'),
          },
          { key: 'username', header: t('gateway.fields.username'), render: (g) => g.username },
          { key: 'status', header: t('gateway.fields.status'), minWidth: 120, render: status },
          { key: 'created', header: t('gateway.fields.created'), sortField: 'created', render: (g) => formatDateTime(g.created) },
        ]}
        add={{ menu: 'access-gateway-add', onClick: dialog.openNew }}
        rowActions={(g) => [
          // A connection test changes nothing but the live state: the page's key grants it (POST /access-gateways/:id/reconnect).
          {
            key: 'test',
            label: t('gateway.test.action'),
            menu: 'access-gateway',
            disabled: testing.has(g.id),
            onClick: () => test(g),
          },
          { key: 'edit', label: t('gateway.list.edit'), menu: 'access-gateway-edit', onClick: () => dialog.openEdit(g.id) },
          { key: 'trust', label: t('gateway.trust.action'), menu: 'access-gateway-edit', onClick: () => void trust(g) },
        ]}
        remove={{ menu: 'access-gateway-del', run: gateways.remove, batch: (rows) => t('gateway.list.batchDelete', { count: rows.length }) }}
      />
      <GatewayFormDialog dialog={dialog} onSaved={() => table.done(t('gateway.list.saved'))} />
    </PageContainer>
  );
}
