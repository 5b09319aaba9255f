import {
  Breadcrumb,
  BreadcrumbButton,
  BreadcrumbDivider,
  BreadcrumbItem,
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  makeStyles,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ChevronDownRegular } from '@fluentui/react-icons/svg/chevron-down';
import { ShieldKeyholeFilled } from '@fluentui/react-icons/svg/shield-keyhole';
import { SignOutRegular } from '@fluentui/react-icons/svg/sign-out';
import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { useBranding, useCore, useSession } from '../app/context';
import { LogoutConfirm } from '../app/logout';
import { buildCrumbs } from '../navigation/menu';
import { dataKeyT } from '../i18n/types';

const VERSION = '1.3.9';
export const SIDER_WIDTH = { expanded: 200, collapsed: 80 } as const;
export const LOGO_WIDTH = { expanded: 140, collapsed: 46 } as const;
export const HEADER_HEIGHT = 60;

const useStyles = makeStyles({
  logo: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    height: '46px',
    overflow: 'hidden',
    whiteSpace: 'nowrap',
    color: 'inherit',
    textDecorationLine: 'none',
  },
  mark: {
    flexShrink: 0,
    width: '40px',
    height: '40px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    borderRadius: tokens.borderRadiusLarge,
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    fontSize: '26px',
  },
  name: { fontWeight: tokens.fontWeightBold, fontSize: tokens.fontSizeBase400, overflow: 'hidden', textOverflow: 'ellipsis' },
  footer: {
    textAlign: 'center',
    padding: `${tokens.spacingVerticalL} ${tokens.spacingHorizontalL}`,
    color: tokens.colorNeutralForeground3,
  },
});

/** Logo mark (icon on brand colour) plus the branding name; only the mark when collapsed. */
export function Logo({ collapsed = false, width }: { collapsed?: boolean; width?: number }) {
  const styles = useStyles();
  const { name } = useBranding();
  return (
    <div className={styles.logo} style={width === undefined ? undefined : { width }} data-testid="core.logo">
      <span className={styles.mark} aria-hidden>
        <ShieldKeyholeFilled />
      </span>
      {!collapsed && <span className={styles.name}>{name}</span>}
    </div>
  );
}

export function Footer() {
  const styles = useStyles();
  const { t } = useTranslation('core');
  const { copyright } = useBranding();
  return (
    <footer className={styles.footer}>
      <Text size={200}>{t('layout.footer', { copyright, version: VERSION })}</Text>
    </footer>
  );
}

/** `首页` then one crumb per registered path segment. */
export function Breadcrumbs({ homePath }: { homePath: string }) {
  const { registry } = useCore();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { t } = useTranslation('core');
  const crumbs = buildCrumbs(registry, pathname);
  return (
    <Breadcrumb aria-label={t('layout.breadcrumb')}>
      <BreadcrumbItem>
        <BreadcrumbButton onClick={() => navigate(homePath)} current={crumbs.length === 0}>
          {t('layout.home')}
        </BreadcrumbButton>
      </BreadcrumbItem>
      {crumbs.map((crumb, index) => {
        const last = index === crumbs.length - 1;
        return (
          <Fragment key={crumb.path}>
            <BreadcrumbDivider />
            <BreadcrumbItem>
              <BreadcrumbButton current={last} onClick={last ? undefined : () => navigate(crumb.path)}>
                {dataKeyT(t)(crumb.titleKey, { ns: crumb.ns })}
              </BreadcrumbButton>
            </BreadcrumbItem>
          </Fragment>
        );
      })}
    </Breadcrumb>
  );
}

/** `nickname ▾` dropdown; `items` come first, then 退出登录 behind its confirm. */
export function AccountMenu({ items }: { items: ReactNode }) {
  const { t } = useTranslation('core');
  const user = useSession((state) => state.user);
  const [confirming, setConfirming] = useState(false);
  const label = user?.nickname || user?.username || t('user.menu');
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Button appearance="subtle" icon={<ChevronDownRegular />} iconPosition="after">
            {label}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {items}
            {/* Open after the menu has closed and returned focus, else the dialog opens under the menu's focus handling. */}
            <LogoutMenuItem onSelect={() => window.setTimeout(() => setConfirming(true), 0)} />
          </MenuList>
        </MenuPopover>
      </Menu>
      {/* Mounted only while asked: a fresh dialog each time, no stale exit animation state. */}
      {confirming && <LogoutConfirm open onOpenChange={setConfirming} />}
    </>
  );
}

function LogoutMenuItem({ onSelect }: { onSelect: () => void }) {
  const { t } = useTranslation('core');
  return (
    <MenuItem icon={<SignOutRegular />} onClick={onSelect}>
      {t('user.logout')}
    </MenuItem>
  );
}
