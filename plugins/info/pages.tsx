// The lazy facade of the info plugin: the personal centre, inside an admin page and as a portal page.
import { PageContainer } from '@/core';
import { AccountCentre } from './components/AccountCentre';

export function Info() {
  return (
    <PageContainer>
      <AccountCentre />
    </PageContainer>
  );
}

export function MyInfo() {
  return <AccountCentre />;
}
