// The lazy facade of the strategy plugin: one named export per page.
export { AuthorisationList } from './components/AuthorisationList';
export { StrategyDetail } from './components/StrategyDetail';
export { StrategyList } from './components/StrategyList';
