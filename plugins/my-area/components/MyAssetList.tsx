import { PageContainer, RelativeTime, ServerTable, TagList, useEndpoints, useTranslation } from '@/core';
import { AssetStatus, ProtocolBadge, useProtocolOptions } from '@/domain';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { KEYS, type MyAssetRow, myAssetApi } from '../api';

const useStyles = makeStyles({
  name: { display: 'flex', flexDirection: 'column', minWidth: '120px' },
  description: { color: tokens.colorNeutralForeground3 },
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  cardTitle: { fontWeight: tokens.fontWeightSemibold },
  cardLine: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS },
});

const description = (row: MyAssetRow) => (row.description === '-' ? '' : row.description);

/**
 * `#/term?…` of an SSH asset, opened in a new browser tab (the terminal fills its window). `isWorker` makes the page
 * use the portal's routes (the user's own snippets). Other protocols have no page yet, so no action.
 */
export const terminalHref = (a: Pick<MyAssetRow, 'id' | 'name'>) =>
  `#/term?${new URLSearchParams({ assetId: a.id, assetName: a.name, isWorker: 'true' })}`;

/**
 * 我的资产, the portal's home: the assets the caller may open (owned, granted directly or through a group, within the
 * grant's window), as a table or as cards, each SSH one with 接入 (a terminal in a new browser tab).
 */
export function MyAssetList() {
  const { t } = useTranslation('my-area');
  const styles = useStyles();
  const assets = useEndpoints(myAssetApi);
  const protocols = useProtocolOptions();

  const nameAndDescription = (a: MyAssetRow) => (
    <span className={styles.name}>
      <span>{a.name}</span>
      {description(a) ? (
        <Text size={200} className={styles.description}>
          {description(a)}
        </Text>
      ) : null}
    </span>
  );

  return (
    <PageContainer>
      <ServerTable<MyAssetRow>
        tableKey="my-asset"
        title={t('asset.title')}
        queryKey={KEYS.assets}
        fetchPage={assets.page}
        getRowId={(a) => a.id}
        empty={t('asset.empty')}
        searchFields={[
          { name: 'name', label: t('asset.fields.name') },
          { name: 'protocol', label: t('asset.fields.protocol'), type: 'select', options: protocols },
          { name: 'tags', label: t('asset.fields.tags'), type: 'multiselect', remoteOptions: { queryKey: KEYS.tags, load: assets.tags } },
        ]}
        columns={[
          { key: 'name', header: t('asset.fields.name'), sortField: 'name', hideable: false, render: nameAndDescription },
          { key: 'protocol', header: t('asset.fields.protocol'), sortField: 'protocol', render: (a) => <ProtocolBadge protocol={a.protocol} /> },
          { key: 'tags', header: t('asset.fields.tags'), render: (a) => <TagList tags={a.tags} /> },
          { key: 'active', header: t('asset.fields.status'), sortField: 'active', render: (a) => <AssetStatus active={a.active} message={a.activeMessage} /> },
          { key: 'lastAccessTime', header: t('asset.fields.lastAccess'), sortField: 'lastAccessTime', render: (a) => <RelativeTime time={a.lastAccessTime} /> },
        ]}
        rowActions={(a) =>
          a.protocol === 'ssh' ? [{ key: 'connect', label: t('asset.actions.connect'), onClick: () => window.open(terminalHref(a), '_blank') }] : []
        }
        cards={{
          render: (a) => (
            <article className={styles.card} aria-label={a.name}>
              <Text as="h3" className={styles.cardTitle}>
                {a.name}
              </Text>
              {description(a) ? <Text className={styles.description}>{description(a)}</Text> : null}
              <span className={styles.cardLine}>
                <ProtocolBadge protocol={a.protocol} />
                <AssetStatus active={a.active} message={a.activeMessage} />
              </span>
              <TagList tags={a.tags} empty="" />
              <Text size={200} className={styles.description}>
                {t('asset.fields.lastAccess')}: <RelativeTime time={a.lastAccessTime} />
              </Text>
            </article>
          ),
        }}
      />
    </PageContainer>
  );
}
