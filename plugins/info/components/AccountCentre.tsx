import { useTranslation } from '@/core';
import { makeStyles, Tab, TabList, tokens } from '@fluentui/react-components';
import { useSearchParams } from 'react-router-dom';
import { AccessToken } from './AccessToken';
import { ACCOUNT_NS } from './shared';
import { AccountDetails } from './AccountDetails';
import { ChangePassword } from './ChangePassword';
import { TwoFactor } from './TwoFactor';

type AccountSection = 'info' | 'password' | 'totp' | 'token';

const ACCOUNT_SECTIONS: readonly AccountSection[] = ['info', 'password', 'totp', 'token'];

const PANELS: Record<AccountSection, () => React.JSX.Element> = {
  info: AccountDetails,
  password: ChangePassword,
  totp: TwoFactor,
  token: AccessToken,
};

const useStyles = makeStyles({
  root: {
    display: 'flex',
    gap: tokens.spacingHorizontalXXL,
    padding: tokens.spacingVerticalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    minHeight: '360px',
  },
  tabs: {
    flexShrink: 0,
    width: '150px',
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingRight: tokens.spacingHorizontalS,
  },
  panel: { flexGrow: 1, minWidth: 0 },
});

export interface AccountCentreProps {
  /** Sections to offer, in order (default: all). */
  sections?: readonly AccountSection[];
  /** URL search parameter holding the active section (default `activeKey`, as DetailTabs). */
  param?: string;
}

/**
 * The personal centre (个人中心) shared by the admin page /info and the portal page /my-info: left-side tabs
 * 基本信息 / 修改密码 / 两步认证 / 授权令牌, the active one kept in the URL.
 */
export function AccountCentre({ sections = ACCOUNT_SECTIONS, param = 'activeKey' }: AccountCentreProps) {
  const styles = useStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const [params, setParams] = useSearchParams();
  const requested = params.get(param);
  const active = sections.find((s) => s === requested) ?? sections[0];
  if (!active) return null;
  const Panel = PANELS[active];
  return (
    <div className={styles.root}>
      <TabList
        className={styles.tabs}
        vertical
        aria-label={t('account.tabs.label')}
        selectedValue={active}
        onTabSelect={(_, data) => {
          const next = new URLSearchParams(params);
          next.set(param, String(data.value));
          setParams(next, { replace: true });
        }}
      >
        {sections.map((section) => (
          <Tab key={section} value={section} id={`account-tab-${section}`} aria-controls={section === active ? 'account-tabpanel' : undefined}>
            {t(`account.tabs.${section}`)}
          </Tab>
        ))}
      </TabList>
      <div className={styles.panel} role="tabpanel" id="account-tabpanel" aria-labelledby={`account-tab-${active}`}>
        <Panel />
      </div>
    </div>
  );
}
