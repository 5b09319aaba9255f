// `@/core/testing`: for test files only (the boundary test forbids it elsewhere).
export {
  createTestSession,
  expectValidPlugin,
  renderConsole,
  renderPlugin,
  renderWithProviders,
} from './harness';
export type { HarnessOptions, HarnessResult, RecordedEvent, TestSessionInit } from './harness';
export { typeDateTime } from './dateTime';
export { createFakeApi, reply, UnexpectedRequestError } from './fakeApi';
export type { FakeApi, FakeHandler, FakeHandlers, FakeReply, FakeRequest } from './fakeApi';
export { createEventBus } from '../events/bus';
export { createPluginRegistry, PluginRegistrationError, validatePluginLoad, validatePluginModule } from '../plugin/registry';
export type { PluginRegistry, ResourceBundle } from '../plugin/registry';
export { createMemoryStorage, createSessionStore } from '../session/store';
export { createApiClient } from '../api/client';
export { createQueryClient, retryDelay, shouldRetry } from '../query/createQueryClient';
export { loadLocaleFiles } from '../i18n/resources';
export { LOGO_WIDTH, SIDER_WIDTH } from '../layouts/parts';
export { FakeWebSocket, installFakeWebSocket } from './fakeSocket';
export type { FakeSockets } from './fakeSocket';
