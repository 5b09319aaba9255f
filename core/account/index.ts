// The personal centre (个人中心): rendered by the admin page /info and the portal page /my-info.
// Plugins never import each other, so the shared UI lives here and reaches them through `@/core`.
export { AccessToken } from './AccessToken';
export { AccountCentre } from './AccountCentre';
export type { AccountCentreProps, AccountSection } from './AccountCentre';
export { AccountDetails } from './AccountDetails';
export { ChangePassword } from './ChangePassword';
export { TwoFactor } from './TwoFactor';
