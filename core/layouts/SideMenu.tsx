import { makeStyles, mergeClasses, Tree, TreeItem, TreeItemLayout, type TreeItemValue, tokens } from '@fluentui/react-components';
import type { FluentIcon } from '@fluentui/react-icons';
import { AppsRegular } from '@fluentui/react-icons/svg/apps';
import { ClipboardTaskListLtrRegular } from '@fluentui/react-icons/svg/clipboard-task-list-ltr';
import { DocumentTextRegular } from '@fluentui/react-icons/svg/document-text';
import { PeopleSwapRegular } from '@fluentui/react-icons/svg/people-swap';
import { PersonKeyRegular } from '@fluentui/react-icons/svg/person-key';
import { ServerRegular } from '@fluentui/react-icons/svg/server';
import { ShieldCheckmarkRegular } from '@fluentui/react-icons/svg/shield-checkmark';
import { WrenchRegular } from '@fluentui/react-icons/svg/wrench';
import { type KeyboardEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useCore, useSession } from '../app/context';
import { buildAdminMenu, selectedPagePath } from '../navigation/menu';
import type { NavGroupKey } from '../../shared/nav-groups.ts';
import type { ResolvedPage } from '../plugin/types';
import { dataKeyT } from '../i18n/types';

const OPEN_KEYS_STORAGE_KEY = 'openKeys';

const GROUP_ICONS: Partial<Record<NavGroupKey, FluentIcon>> = {
  resource: ServerRegular,
  'session-audit': ClipboardTaskListLtrRegular,
  'log-audit': DocumentTextRegular,
  ops: WrenchRegular,
  security: ShieldCheckmarkRegular,
  identity: PeopleSwapRegular,
  authorised: PersonKeyRegular,
};

const useStyles = makeStyles({
  selected: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    color: tokens.colorBrandForeground1,
    fontWeight: tokens.fontWeightSemibold,
  },
  // One line per entry: a label longer than the 200 px menu (English's "Dynamic commands" under its group) ends in
  // an ellipsis and shows whole in a tooltip, instead of wrapping onto a second line.
  shownLabel: {
    display: 'block',
    minWidth: 0,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  hiddenLabel: {
    position: 'absolute',
    width: '1px',
    height: '1px',
    overflow: 'hidden',
    clip: 'rect(0 0 0 0)',
    whiteSpace: 'nowrap',
  },
});

/** A clipped label shows its whole text as the pointer's tooltip (none when it fits: a title would repeat the name). */
function showWholeWhenClipped(event: { currentTarget: HTMLElement }): void {
  const el = event.currentTarget;
  if (el.scrollWidth > el.clientWidth) el.title = el.textContent ?? '';
  else el.removeAttribute('title');
}

function readOpenKeys(): string[] {
  try {
    const value: unknown = JSON.parse(window.sessionStorage.getItem(OPEN_KEYS_STORAGE_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** The admin side menu as a Fluent Tree (arrow keys, Enter); open groups survive reloads in sessionStorage. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  const styles = useStyles();
  const { registry } = useCore();
  const menus = useSession((state) => state.user?.menus);
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const entries = useMemo(() => buildAdminMenu(registry, menus ?? []), [registry, menus]);
  const selected = selectedPagePath(registry, pathname);
  // The group holding the current page is open, on the first render and whenever the page changes by other means
  // than this menu (a link, the breadcrumb, the address bar): the user sees where they are.
  const withCurrent = (keys: string[]): string[] => {
    const group = entries.find((e) => e.type === 'group' && e.children.some((p) => p.path === selected));
    return group?.type === 'group' && !keys.includes(group.key) ? [...keys, group.key] : keys;
  };
  const [openKeys, setOpenKeys] = useState<string[]>(() => withCurrent(readOpenKeys()));
  const [shown, setShown] = useState(selected);
  if (shown !== selected) {
    setShown(selected);
    setOpenKeys(withCurrent(openKeys));
  }

  const onOpenChange = (next: Iterable<TreeItemValue>) => {
    const keys = Array.from(next, String);
    setOpenKeys(keys);
    window.sessionStorage.setItem(OPEN_KEYS_STORAGE_KEY, JSON.stringify(keys));
  };

  const label = (text: string) =>
    collapsed ? (
      <span className={styles.hiddenLabel}>{text}</span>
    ) : (
      <span className={styles.shownLabel} onPointerEnter={showWholeWhenClipped}>
        {text}
      </span>
    );

  const leaf = (page: ResolvedPage) => {
    const Icon = registry.iconOf(page.path) ?? AppsRegular;
    const isSelected = page.path === selected;
    const go = () => navigate(page.path);
    return (
      <TreeItem
        key={page.path}
        itemType="leaf"
        value={page.path}
        aria-current={isSelected ? 'page' : undefined}
        onClick={go}
        onKeyDown={(event: KeyboardEvent) => {
          if (event.key === 'Enter') go();
        }}
        onPointerEnter={() => void registry.loadPlugin(page.pluginId).catch(() => undefined)}
      >
        <TreeItemLayout iconBefore={<Icon />} className={mergeClasses(isSelected && styles.selected)}>
          {label(dataKeyT(t)(page.labelKey, { ns: page.pluginId }))}
        </TreeItemLayout>
      </TreeItem>
    );
  };

  return (
    <Tree aria-label={t('layout.menu')} openItems={openKeys} onOpenChange={(_, data) => onOpenChange(data.openItems)}>
      {entries.map((entry) => {
        if (entry.type === 'item') return leaf(entry.page);
        const Icon = GROUP_ICONS[entry.key] ?? AppsRegular;
        return (
          <TreeItem key={entry.key} itemType="branch" value={entry.key}>
            <TreeItemLayout iconBefore={<Icon />}>{label(dataKeyT(t)(entry.labelKey))}</TreeItemLayout>
            <Tree>{entry.children.map(leaf)}</Tree>
          </TreeItem>
        );
      })}
    </Tree>
  );
}
