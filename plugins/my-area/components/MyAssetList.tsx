import { PageContainer, RelativeTime, ServerTable, TagList, useEndpoints, useTranslation } from '@/core';
import { AssetStatus, assetDescription, ProtocolBadge, useAssetColumns } from '@/domain';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { KEYS, type MyAssetRow, myAssetApi } from '../api';

const useStyles = makeStyles({
  description: { color: tokens.colorNeutralForeground3 },
  card: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  cardTitle: { fontWeight: tokens.fontWeightSemibold },
  cardLine: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalS },
});

/** The protocols the terminal page (`/term`) opens. */
export const TERMINAL_PROTOCOLS: readonly string[] = ['ssh', 'telnet'];

/** The protocols the desktop page (`/access`) opens. */
export const DESKTOP_PROTOCOLS: readonly string[] = ['vnc', 'rdp'];

/**
 * `#/term?…` of an SSH or Telnet asset, opened in a new browser tab (the terminal fills its window); `protocol` picks
 * the page's socket. `isWorker` makes the page use the portal's routes (the user's own snippets).
 */
export const terminalHref = (a: Pick<MyAssetRow, 'id' | 'name' | 'protocol'>) =>
  `#/term?${new URLSearchParams({ assetId: a.id, assetName: a.name, protocol: a.protocol, isWorker: 'true' })}`;

/** `#/access?…` of a VNC or RDP asset, opened in a new browser tab (the desktop fills its window). */
export const desktopHref = (a: Pick<MyAssetRow, 'id' | 'name' | 'protocol'>) =>
  `#/access?${new URLSearchParams({ assetId: a.id, assetName: a.name, protocol: a.protocol })}`;

/** Where 接入 goes for an asset of this protocol (null: nowhere yet). */
export const accessHref = (a: Pick<MyAssetRow, 'id' | 'name' | 'protocol'>): string | null =>
  TERMINAL_PROTOCOLS.includes(a.protocol) ? terminalHref(a) : DESKTOP_PROTOCOLS.includes(a.protocol) ? desktopHref(a) : null;

/**
 * 我的资产, the portal's home: the assets the caller may open (owned, granted directly or through a group, within the
 * grant's window), as a table or as cards, each SSH, Telnet, VNC or RDP one with 接入 (a terminal or a desktop in a new browser tab).
 */
export function MyAssetList() {
  const { t } = useTranslation('my-area');
  const styles = useStyles();
  const assets = useEndpoints(myAssetApi);
  const { search, columns } = useAssetColumns<MyAssetRow>({ text: (key) => t(`asset.${key}`), tags: { queryKey: KEYS.tags, load: assets.tags } });

  return (
    <PageContainer>
      <ServerTable<MyAssetRow>
        tableKey="my-asset"
        title={t('asset.title')}
        queryKey={KEYS.assets}
        fetchPage={assets.page}
        getRowId={(a) => a.id}
        empty={t('asset.empty')}
        searchFields={[search.name, search.protocol, search.tags]}
        columns={[columns.name, columns.protocol, columns.tags, columns.status, columns.lastAccess]}
        rowActions={(a) => {
          const href = accessHref(a);
          return href === null ? [] : [{ key: 'connect', label: t('asset.actions.connect'), onClick: () => window.open(href, '_blank') }];
        }}
        cards={{
          render: (a) => (
            <article className={styles.card} aria-label={a.name}>
              <Text as="h3" className={styles.cardTitle}>
                {a.name}
              </Text>
              {assetDescription(a) ? <Text className={styles.description}>{assetDescription(a)}</Text> : null}
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
