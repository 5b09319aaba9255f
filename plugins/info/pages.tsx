// The lazy facade of the info plugin: the shared personal centre inside an admin page.
import { AccountCentre, PageContainer } from '@/core';

export function Info() {
  return (
    <PageContainer>
      <AccountCentre />
    </PageContainer>
  );
}
