// The lazy facade of the my-area plugin (the end-user portal pages).
import { AccountCentre } from '@/core';

export function MyInfo() {
  return <AccountCentre />;
}
