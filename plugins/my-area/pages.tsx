// The lazy facade of the my-area plugin: one named export per page.
export { MyAssetList } from './components/MyAssetList';
export { MyCommandList } from './components/MyCommandList';
