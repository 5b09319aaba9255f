// The personal centre (个人中心): rendered by the admin page /info and the portal page /my-info.
// Plugins never import each other, so the shared UI lives here and reaches them through `@/core`.
// Every export waits for the `core-account` locale namespace, which production fetches on first use.
import type { ComponentType } from 'react';
import { NamespaceGate } from '../app/OnDemand';
import { AccessToken as AccessTokenPanel } from './AccessToken';
import { AccountCentre as Centre, type AccountCentreProps } from './AccountCentre';
import { AccountDetails as DetailsPanel } from './AccountDetails';
import { ChangePassword as PasswordPanel } from './ChangePassword';
import { ACCOUNT_NS } from './shared';
import { TwoFactor as TwoFactorPanel } from './TwoFactor';

export type { AccountCentreProps, AccountSection } from './AccountCentre';

function withAccountLocale<P extends object>(Component: ComponentType<P>, name: string): ComponentType<P> {
  const Gated = (props: P) => (
    <NamespaceGate namespaces={[ACCOUNT_NS]}>
      <Component {...props} />
    </NamespaceGate>
  );
  Gated.displayName = name;
  return Gated;
}

export const AccountCentre = withAccountLocale<AccountCentreProps>(Centre, 'AccountCentre');
export const AccountDetails = withAccountLocale(DetailsPanel, 'AccountDetails');
export const ChangePassword = withAccountLocale(PasswordPanel, 'ChangePassword');
export const TwoFactor = withAccountLocale(TwoFactorPanel, 'TwoFactor');
export const AccessToken = withAccountLocale(AccessTokenPanel, 'AccessToken');
