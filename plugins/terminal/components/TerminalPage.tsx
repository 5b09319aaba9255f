import { confirm, useApi, useCan, usePageTitle, useQuery, useSession, useTranslation } from '@/core';
import {
  Button,
  Input,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  mergeClasses,
  Spinner,
  Tab,
  TabList,
  Tooltip,
  tokens,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { ChevronUpRegular } from '@fluentui/react-icons/svg/chevron-up';
import { CodeRegular } from '@fluentui/react-icons/svg/code';
import { DataLineRegular } from '@fluentui/react-icons/svg/data-line';
import { DismissRegular } from '@fluentui/react-icons/svg/dismiss';
import { FolderRegular } from '@fluentui/react-icons/svg/folder';
import { SearchRegular } from '@fluentui/react-icons/svg/search';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { allowed, hasStats, type PickableAsset, sessionProtocol, snippetApi, type TermProtocol, termProtocol } from '../api';
import { AssetPicker } from './AssetPicker';
import { FileManager } from './FileManager';
import { StatsPanel } from './StatsPanel';
import { type TabControls, type TabInfo, type TabStatus, TermTab } from './TermTab';

interface OpenTab {
  key: string;
  assetId: string;
  assetName: string;
  /** What the tab was opened for (the link's `protocol`, the picked asset's); the server's answer may correct it. */
  protocol: TermProtocol;
  /** The asset's name, with ` #2`, ` #3`… for a further tab of an asset already open: tabs are told apart. */
  title: string;
  /** 1 for the first tab of its asset, 2 for the second… */
  copy: number;
  /** Bumped by "reconnect": a new TermTab, so a new session. */
  generation: number;
}

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground3 },
  top: {
    display: 'flex',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  tabs: { flexGrow: 1, minWidth: 0, overflowX: 'auto' },
  tab: { display: 'inline-flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  dot: { display: 'inline-block', width: '8px', height: '8px', borderRadius: tokens.borderRadiusCircular, flexShrink: 0 },
  creating: { backgroundColor: tokens.colorNeutralForeground4 },
  connecting: { backgroundColor: tokens.colorPaletteMarigoldBackground3 },
  connected: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  closed: { backgroundColor: tokens.colorPaletteRedBackground3 },
  failed: { backgroundColor: tokens.colorPaletteRedBackground3 },
  tools: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS },
  search: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXXS },
  body: { position: 'relative', flexGrow: 1, minHeight: 0 },
  message: { padding: tokens.spacingHorizontalXXL },
});

let tabSeq = 0;

/**
 * A new tab of `assetId` beside the `open` ones. The first of an asset is titled by its name; each further one gets the
 * next number after the highest still open (` #2`, ` #3`…), kept for the tab's life: closing one renames no other.
 */
function newTab(open: readonly OpenTab[], assetId: string, assetName: string, protocol: TermProtocol): OpenTab {
  const same = open.filter((tab) => tab.assetId === assetId);
  const copy = same.length === 0 ? 1 : Math.max(...same.map((tab) => tab.copy)) + 1;
  return { key: `t${++tabSeq}`, assetId, assetName, protocol, copy, title: copy === 1 ? assetName : `${assetName} #${copy}`, generation: 0 };
}

/**
 * `/term?assetId=&assetName=[&protocol=ssh|telnet][&isWorker=true]` (screens §5.2): full-window SSH and Telnet
 * terminals, one tab per session (the URL's asset first; "+" adds one), with the file manager and the host's status
 * where the session offers them, and the user's snippets, for the tab shown. A link without `protocol` (1.3.9's, ours
 * before Telnet) opens SSH.
 */
export function TerminalPage() {
  const { t } = useTranslation('terminal');
  const styles = useStyles();
  const api = useApi();
  const [params] = useSearchParams();
  const assetId = params.get('assetId') ?? '';
  const assetName = params.get('assetName') ?? '';
  const isWorker = params.get('isWorker') === 'true';
  const linkProtocol = termProtocol(params.get('protocol'));
  const userType = useSession((s) => s.user?.type);
  const mayListAll = useCan('asset');
  const mayListCommands = useCan('command');
  // The portal's lists for the portal (and for anyone without the admin list's key: asking would answer 403).
  const portal = isWorker || userType === 'user' || !mayListAll;
  const ownSnippets = isWorker || userType === 'user' || !mayListCommands;

  const [tabs, setTabs] = useState<OpenTab[]>(() => (assetId ? [newTab([], assetId, assetName || assetId, linkProtocol)] : []));
  const [activeKey, setActiveKey] = useState(tabs[0]?.key ?? '');
  const [infos, setInfos] = useState<Record<string, TabInfo>>({});
  const controls = useRef(new Map<string, TabControls>());
  const [picking, setPicking] = useState(false);
  const [drawer, setDrawer] = useState<'files' | 'stats' | null>(null);
  const [searching, setSearching] = useState(false);
  const [needle, setNeedle] = useState('');
  const [snippetsOpen, setSnippetsOpen] = useState(false);

  const active = tabs.find((tab) => tab.key === activeKey);
  const activeInfo = active ? infos[active.key] : undefined;
  const session = activeInfo?.flags ?? null;
  const connected = activeInfo?.status === 'connected';
  const activeProtocol = active ? sessionProtocol(session, active.protocol) : null;
  const statsOffered = activeProtocol !== null && hasStats(activeProtocol);
  usePageTitle(active?.title ?? (assetName || null));

  // Leaving the page ends every session: ask first while one is connected (1.3.9 asked always). A layout effect: the
  // guard is in place in the same commit that shows a tab as connected, not one scheduler task later.
  const anyConnected = Object.values(infos).some((info) => info.status === 'connected');
  useLayoutEffect(() => {
    if (!anyConnected) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [anyConnected]);

  const setInfo = useCallback((key: string, info: TabInfo) => setInfos((all) => ({ ...all, [key]: info })), []);

  // Read after an await (the confirm): the state of now, not of the click.
  const now = useRef({ tabs, activeKey, infos });
  now.current = { tabs, activeKey, infos };
  const closeTab = async (tab: OpenTab) => {
    if (now.current.infos[tab.key]?.status === 'connected' && !(await confirm({ title: t('tabs.closeConfirm', { name: tab.title }), danger: true }))) return;
    const list = now.current.tabs;
    const at = list.findIndex((x) => x.key === tab.key);
    const rest = list.filter((x) => x.key !== tab.key);
    setTabs(rest);
    setInfos(({ [tab.key]: _gone, ...others }) => others);
    if (tab.key === now.current.activeKey) {
      setActiveKey(rest[Math.min(at, rest.length - 1)]?.key ?? '');
      setDrawer(null);
    }
  };
  const reconnect = (tab: OpenTab) => setTabs((list) => list.map((x) => (x.key === tab.key ? { ...x, generation: x.generation + 1 } : x)));
  const addTab = (asset: PickableAsset) => {
    const tab = newTab(now.current.tabs, asset.id, asset.name, termProtocol(asset.protocol));
    setTabs((list) => [...list, tab]);
    setActiveKey(tab.key);
    setPicking(false);
  };

  const snippets = useQuery({
    queryKey: ['terminal', 'snippets', ownSnippets],
    queryFn: () => snippetApi(api, ownSnippets).list(),
    enabled: snippetsOpen,
  });

  const focusTerm = () => (active ? controls.current.get(active.key)?.focus() : undefined);
  const find = (backwards = false) => {
    if (active && needle) controls.current.get(active.key)?.find(needle, backwards);
  };
  const closeSearch = () => {
    if (active) controls.current.get(active.key)?.clearFind();
    setSearching(false);
    focusTerm();
  };
  const closeDrawer = () => {
    setDrawer(null);
    focusTerm();
  };

  if (!assetId && tabs.length === 0 && !picking) {
    return (
      <div className={styles.message}>
        <MessageBar intent="error">
          <MessageBarBody>{t('term.missingParams')}</MessageBarBody>
        </MessageBar>
      </div>
    );
  }

  const filesAllowed = session !== null && allowed(session.fileSystem);
  const statusLabel = (status: TabStatus | undefined) => t(`status.${status ?? 'creating'}`);

  return (
    <div className={styles.page}>
      <div className={styles.top}>
        <TabList
          className={styles.tabs}
          size="small"
          selectedValue={activeKey}
          onTabSelect={(_, data) => setActiveKey(String(data.value))}
          aria-label={t('tabs.label')}
        >
          {tabs.map((tab) => {
            const status = infos[tab.key]?.status;
            // The close button sits beside its tab, not inside it: a button may not hold another.
            return (
              <span key={tab.key} className={styles.tab}>
                <Tab value={tab.key} aria-label={`${tab.title} ${statusLabel(status)}`}>
                  <span className={styles.tab}>
                    <span className={mergeClasses(styles.dot, styles[status ?? 'creating'])} role="img" aria-label={statusLabel(status)} />
                    {tab.title}
                  </span>
                </Tab>
                <Button
                  size="small"
                  appearance="transparent"
                  icon={<DismissRegular />}
                  aria-label={t('tabs.close', { name: tab.title })}
                  onClick={() => void closeTab(tab)}
                />
              </span>
            );
          })}
        </TabList>
        <Tooltip content={t('tabs.add')} relationship="label">
          <Button appearance="subtle" icon={<AddRegular />} onClick={() => setPicking(true)} />
        </Tooltip>
        <div className={styles.tools}>
          {searching ? (
            <span className={styles.search}>
              <Input
                size="small"
                autoFocus
                aria-label={t('search.label')}
                placeholder={t('search.label')}
                value={needle}
                onChange={(_, data) => setNeedle(data.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') find(event.shiftKey);
                  if (event.key === 'Escape') closeSearch();
                }}
              />
              <Tooltip content={t('search.previous')} relationship="label">
                <Button size="small" appearance="subtle" icon={<ChevronUpRegular />} onClick={() => find(true)} />
              </Tooltip>
              <Tooltip content={t('search.next')} relationship="label">
                <Button size="small" appearance="subtle" icon={<ChevronDownRegular />} onClick={() => find(false)} />
              </Tooltip>
              <Tooltip content={t('search.close')} relationship="label">
                <Button size="small" appearance="subtle" icon={<DismissRegular />} onClick={closeSearch} />
              </Tooltip>
            </span>
          ) : (
            <Tooltip content={t('search.open')} relationship="label">
              <Button appearance="subtle" icon={<SearchRegular />} disabled={!active} onClick={() => setSearching(true)} />
            </Tooltip>
          )}
          <Menu open={snippetsOpen} onOpenChange={(_, data) => setSnippetsOpen(data.open)}>
            <MenuTrigger disableButtonEnhancement>
              <Tooltip content={t('snippets.label')} relationship="label">
                <Button appearance="subtle" icon={<CodeRegular />} disabled={!connected} />
              </Tooltip>
            </MenuTrigger>
            <MenuPopover>
              <MenuList>
                {snippets.isPending ? <Spinner size="tiny" /> : null}
                {snippets.isSuccess && snippets.data.length === 0 ? <MenuItem disabled>{t('snippets.empty')}</MenuItem> : null}
                {(snippets.data ?? []).map((snippet) => (
                  <MenuItem
                    key={snippet.id}
                    onClick={() => {
                      if (!active) return;
                      // Typed as if keyed, without Enter (1.3.9): the user reviews it first.
                      controls.current.get(active.key)?.type(snippet.content);
                      focusTerm();
                    }}
                  >
                    {snippet.name}
                  </MenuItem>
                ))}
              </MenuList>
            </MenuPopover>
          </Menu>
          <Tooltip content={filesAllowed || !session ? t('files.title') : t('files.notOffered')} relationship="label">
            <Button appearance="subtle" icon={<FolderRegular />} disabledFocusable={!connected || !filesAllowed} onClick={() => setDrawer('files')} />
          </Tooltip>
          <Tooltip content={statsOffered || !active ? t('stats.title') : t('stats.notOffered')} relationship="label">
            <Button appearance="subtle" icon={<DataLineRegular />} disabledFocusable={!connected || !statsOffered} onClick={() => setDrawer('stats')} />
          </Tooltip>
        </div>
      </div>
      <div className={styles.body}>
        {tabs.length === 0 ? (
          <div className={styles.message}>
            <MessageBar intent="info">
              <MessageBarBody>{t('tabs.none')}</MessageBarBody>
            </MessageBar>
          </div>
        ) : null}
        {tabs.map((tab) => (
          <TermTab
            key={`${tab.key}:${tab.generation}`}
            assetId={tab.assetId}
            assetName={tab.title}
            protocol={tab.protocol}
            active={tab.key === activeKey}
            onInfo={(info) => setInfo(tab.key, info)}
            controls={(c) => {
              if (c) controls.current.set(tab.key, c);
              else controls.current.delete(tab.key);
            }}
            onReconnect={() => reconnect(tab)}
            onClose={() => void closeTab(tab)}
            onSearchKey={() => setSearching(true)}
          />
        ))}
      </div>
      {session && filesAllowed ? <FileManager key={session.id} open={drawer === 'files'} onClose={closeDrawer} flags={session} /> : null}
      {session && statsOffered ? <StatsPanel open={drawer === 'stats'} onClose={closeDrawer} sessionId={session.id} /> : null}
      <AssetPicker open={picking} onClose={() => setPicking(false)} onPick={addTab} portal={portal} />
    </div>
  );
}
