import { Button, MenuItem, makeStyles, tokens } from '@fluentui/react-components';
import { AppsRegular } from '@fluentui/react-icons/svg/apps';
import { BoardRegular } from '@fluentui/react-icons/svg/board';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useCore, useIsAdmin, useSession } from '../app/context';
import { useLandingPath } from '../app/landing';
import { SecondPass } from '../ui/SecondPass';
import { MainLandmark } from './MainLandmark';
import { LanguageSwitch } from '../app/LanguageSwitch';
import { buildUserBar, selectedPagePath } from '../navigation/menu';
import { AccountMenu, Breadcrumbs, Footer, HEADER_HEIGHT, Logo } from './parts';
import { dataKeyT } from '../i18n/types';

const useStyles = makeStyles({
  root: { minHeight: '100vh', display: 'flex', flexDirection: 'column', backgroundColor: tokens.colorNeutralBackground3 },
  bar: { backgroundColor: tokens.colorNeutralBackground1, boxShadow: tokens.shadow2 },
  barInner: {
    width: '80%',
    margin: '0 auto',
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
  },
  logoLink: { color: 'inherit', textDecorationLine: 'none' },
  nav: { display: 'flex', gap: tokens.spacingHorizontalXS, flexGrow: 1 },
  right: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  container: { width: '80%', margin: `${tokens.spacingVerticalXL} auto 0`, flexGrow: 1 },
  crumbs: { marginBottom: tokens.spacingVerticalM },
});

/** End-user portal: top bar with the user pages (我的资产, 我的指令, 个人中心 from their plugins). */
export function UserLayout() {
  const styles = useStyles();
  const { t } = useTranslation('core');
  const { registry } = useCore();
  const menus = useSession((state) => state.user?.menus);
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const pages = useMemo(() => buildUserBar(registry, menus ?? []), [registry, menus]);
  const selected = selectedPagePath(registry, pathname);
  const portalHome = useLandingPath('user');
  const consoleHome = useLandingPath('admin');
  return (
    <div className={styles.root} data-testid="core.user-layout">
      <header className={styles.bar}>
        <div className={styles.barInner} style={{ height: HEADER_HEIGHT }}>
          <Link to={portalHome} className={styles.logoLink}>
            <Logo />
          </Link>
          {/* The bar's pages and controls and the footer come a pass after the page (as in AdminLayout). */}
          <SecondPass>
            <nav className={styles.nav} aria-label={t('layout.userNav')}>
              {pages.map((page) => {
                const Icon = registry.iconOf(page.path) ?? AppsRegular;
                return (
                  <Button
                    key={page.path}
                    appearance={page.path === selected ? 'primary' : 'subtle'}
                    icon={<Icon />}
                    aria-current={page.path === selected ? 'page' : undefined}
                    onClick={() => navigate(page.path)}
                  >
                    {dataKeyT(t)(page.labelKey, { ns: page.pluginId })}
                  </Button>
                );
              })}
            </nav>
            <div className={styles.right}>
              <LanguageSwitch />
              <AccountMenu
                items={
                  isAdmin ? (
                    <MenuItem icon={<BoardRegular />} onClick={() => navigate(consoleHome)}>
                      {t('user.admin')}
                    </MenuItem>
                  ) : null
                }
              />
            </div>
          </SecondPass>
        </div>
      </header>
      <div className={styles.container}>
        <div className={styles.crumbs}>
          <Breadcrumbs homePath={portalHome} />
        </div>
        <MainLandmark>
          <Outlet />
        </MainLandmark>
      </div>
      <SecondPass>
        <Footer />
      </SecondPass>
    </div>
  );
}
