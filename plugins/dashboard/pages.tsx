// The lazy facade: this module (and the chart library under it) becomes the chunk static/plugin-dashboard-*.js.
export { Dashboard } from './components/Dashboard';
export { Monitoring } from './components/Monitoring';
