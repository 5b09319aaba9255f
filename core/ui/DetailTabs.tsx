import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';

const useStyles = makeStyles({
  panel: { paddingTop: tokens.spacingVerticalL },
});

export interface DetailTab {
  key: string;
  /** Already translated. */
  label: string;
  /** Rendered only while active. */
  content: ReactNode | (() => ReactNode);
  /** Default true; hidden tabs are neither listed nor reachable through the URL. */
  visible?: boolean;
}

export interface DetailTabsProps {
  tabs: readonly DetailTab[];
  /** URL search parameter holding the active tab (default `activeKey`, like 1.3.9). */
  param?: string;
}

/** Tabs of a detail page, the active one kept in the URL (`?activeKey=`), defaulting to the first visible tab. */
export function DetailTabs({ tabs, param = 'activeKey' }: DetailTabsProps) {
  const styles = useStyles();
  const [params, setParams] = useSearchParams();
  const shown = tabs.filter((tab) => tab.visible !== false);
  const requested = params.get(param);
  const active = shown.find((tab) => tab.key === requested) ?? shown[0];
  if (!active) return null;
  const panelId = `tabpanel-${active.key}`;
  return (
    <div>
      <TabList
        selectedValue={active.key}
        onTabSelect={(_, data) => {
          const next = new URLSearchParams(params);
          next.set(param, String(data.value));
          setParams(next, { replace: true });
        }}
      >
        {shown.map((tab) => (
          <Tab key={tab.key} value={tab.key} aria-controls={tab.key === active.key ? panelId : undefined}>
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <div role="tabpanel" id={panelId} className={styles.panel}>
        {typeof active.content === 'function' ? active.content() : active.content}
      </div>
    </div>
  );
}
