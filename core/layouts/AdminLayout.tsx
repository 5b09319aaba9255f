import { Button, MenuItem, MenuItemLink, makeStyles, tokens } from '@fluentui/react-components';
import { BugRegular } from '@fluentui/react-icons/svg/bug';
import { DesktopRegular } from '@fluentui/react-icons/svg/desktop';
import { PanelLeftContractRegular } from '@fluentui/react-icons/svg/panel-left-contract';
import { PanelLeftExpandRegular } from '@fluentui/react-icons/svg/panel-left-expand';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigate } from 'react-router-dom';
import { useLandingPath } from '../app/landing';
import { SecondPass } from '../ui/SecondPass';
import { MainLandmark } from './MainLandmark';
import { LanguageSwitch } from '../app/LanguageSwitch';
import { AccountMenu, Breadcrumbs, Footer, HEADER_HEIGHT, LOGO_WIDTH, Logo, SIDER_WIDTH } from './parts';
import { SideMenu } from './SideMenu';

const useStyles = makeStyles({
  sider: {
    position: 'fixed',
    top: 0,
    left: 0,
    bottom: 0,
    display: 'flex',
    flexDirection: 'column',
    overflowY: 'auto',
    overflowX: 'hidden',
    backgroundColor: tokens.colorNeutralBackground2,
    borderRight: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    transitionProperty: 'width',
    transitionDuration: tokens.durationNormal,
    zIndex: 30,
  },
  logoArea: { display: 'flex', justifyContent: 'center', padding: `${tokens.spacingVerticalXXL} 0` },
  menu: { flexGrow: 1, paddingLeft: tokens.spacingHorizontalXS, paddingRight: tokens.spacingHorizontalXS },
  trigger: { margin: tokens.spacingVerticalS, alignSelf: 'center' },
  main: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    transitionProperty: 'margin-left',
    transitionDuration: tokens.durationNormal,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  header: {
    position: 'sticky',
    top: 0,
    zIndex: 20,
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    paddingLeft: tokens.spacingHorizontalXXL,
    paddingRight: tokens.spacingHorizontalXXL,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow2,
  },
  headerRight: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  content: { flexGrow: 1 },
});

/** Admin console: collapsible side menu (200/80), logo (140/46), header (60) with breadcrumb and account menu. */
export function AdminLayout() {
  const styles = useStyles();
  const { t } = useTranslation('core');
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);
  const portalHome = useLandingPath('user');
  const width = collapsed ? SIDER_WIDTH.collapsed : SIDER_WIDTH.expanded;
  return (
    <div data-testid="core.admin-layout">
      <aside className={styles.sider} style={{ width }} data-testid="core.sider" data-collapsed={collapsed}>
        <div className={styles.logoArea}>
          <Logo collapsed={collapsed} width={collapsed ? LOGO_WIDTH.collapsed : LOGO_WIDTH.expanded} />
        </div>
        {/* The menu, the header's controls and the footer fill their fixed boxes a pass after the page: on a first
            visit the page's content paints without waiting for them (docs/PERFORMANCE.md). */}
        <SecondPass>
          <nav className={styles.menu} aria-label={t('layout.menu')}>
            <SideMenu collapsed={collapsed} />
          </nav>
          <Button
            className={styles.trigger}
            appearance="subtle"
            icon={collapsed ? <PanelLeftExpandRegular /> : <PanelLeftContractRegular />}
            aria-label={collapsed ? t('layout.expand') : t('layout.collapse')}
            aria-expanded={!collapsed}
            onClick={() => setCollapsed((c) => !c)}
          />
        </SecondPass>
      </aside>
      <div className={styles.main} style={{ marginLeft: width }} data-testid="core.main">
        <header className={styles.header} style={{ height: HEADER_HEIGHT }}>
          <SecondPass>
            <Breadcrumbs homePath="/" />
            <div className={styles.headerRight}>
              <LanguageSwitch />
              <AccountMenu
                items={
                  <>
                    <MenuItem icon={<DesktopRegular />} onClick={() => navigate(portalHome)}>
                      {t('user.myAsset')}
                    </MenuItem>
                    {/* A real link: /debug/pprof/ is served by the server, not a console route. */}
                    <MenuItemLink icon={<BugRegular />} href="/debug/pprof/">
                      {t('user.debug')}
                    </MenuItemLink>
                  </>
                }
              />
            </div>
          </SecondPass>
        </header>
        <MainLandmark className={styles.content}>
          <Outlet />
        </MainLandmark>
        <SecondPass>
          <Footer />
        </SecondPass>
      </div>
    </div>
  );
}
