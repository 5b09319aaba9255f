import { RelativeTime, type SearchField, type ServerTableColumn, TagList } from '@/core';
import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { Link } from 'react-router-dom';
import { AssetStatus, ProtocolBadge, useProtocolOptions } from '../AssetBadges';

/** What an asset row shows in any list of assets: the administrators' and the portal's. */
export interface AssetListRow {
  id: string;
  name: string;
  /** `-` or '' = none. */
  description: string;
  protocol: string;
  active: boolean;
  activeMessage: string;
  /** Comma string; `-` = none. */
  tags: string;
  lastAccessTime: string;
}

/** The asset fields' labels, as keys below the calling plugin's own prefix (e.g. `asset.`). */
export type AssetColumnsKey = 'fields.name' | 'fields.protocol' | 'fields.tags' | 'fields.status' | 'fields.lastAccess';

export interface AssetColumnsOptions<Row extends AssetListRow> {
  /** The caller's typed `t` on its own keys: `(key) => t(`asset.${key}`)`. */
  text: (key: AssetColumnsKey) => string;
  /** The tag search's options (the caller's route: every tag, or the caller's assets' tags). */
  tags: { queryKey: readonly unknown[]; load: () => Promise<readonly { value: string; label: string }[]> };
  /** The name links here (the asset's detail page); absent = plain text. */
  linkTo?: (row: Row) => string;
  /** A connectivity check of this row is under way: its status says 测试中. */
  testing?: (row: Row) => boolean;
}

const useStyles = makeStyles({
  name: { display: 'flex', flexDirection: 'column', minWidth: '120px' },
  description: { color: tokens.colorNeutralForeground3 },
});

/** An asset's description, '' when it has none (`-`, as 1.3.9 stores "none"). */
export const assetDescription = (row: Pick<AssetListRow, 'description'>) => (row.description === '-' ? '' : row.description);

/** The name cell: the name (a link when `to` is set) with the description below it in a quieter colour. */
export function AssetNameCell({ row, to }: { row: Pick<AssetListRow, 'name' | 'description'>; to?: string }) {
  const styles = useStyles();
  const description = assetDescription(row);
  return (
    <span className={styles.name}>
      {to ? <Link to={to}>{row.name}</Link> : <span>{row.name}</span>}
      {description ? (
        <Text size={200} className={styles.description}>
          {description}
        </Text>
      ) : null}
    </span>
  );
}

/**
 * The search fields and columns every list of assets has (name, protocol, tags, status, last access), for the caller
 * to place among its own: the administrators' list adds the address, the owner, the creation time and its actions.
 */
export function useAssetColumns<Row extends AssetListRow>({ text, tags, linkTo, testing }: AssetColumnsOptions<Row>) {
  const protocols = useProtocolOptions();
  const search = {
    name: { name: 'name', label: text('fields.name') },
    protocol: { name: 'protocol', label: text('fields.protocol'), type: 'select', options: protocols },
    tags: { name: 'tags', label: text('fields.tags'), type: 'multiselect', remoteOptions: tags },
  } satisfies Record<string, SearchField>;
  const columns = {
    name: {
      key: 'name',
      header: text('fields.name'),
      sortField: 'name',
      hideable: false,
      render: (a) => <AssetNameCell row={a} to={linkTo?.(a)} />,
    },
    protocol: { key: 'protocol', header: text('fields.protocol'), sortField: 'protocol', render: (a) => <ProtocolBadge protocol={a.protocol} /> },
    tags: { key: 'tags', header: text('fields.tags'), render: (a) => <TagList tags={a.tags} /> },
    status: {
      key: 'active',
      header: text('fields.status'),
      sortField: 'active',
      render: (a) => <AssetStatus active={a.active} message={a.activeMessage} testing={testing?.(a)} />,
    },
    lastAccess: {
      key: 'lastAccessTime',
      header: text('fields.lastAccess'),
      sortField: 'lastAccessTime',
      render: (a) => <RelativeTime time={a.lastAccessTime} />,
    },
  } satisfies Record<string, ServerTableColumn<Row>>;
  return { search, columns };
}
