import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals RTL does not register its own cleanup; Fluent's tabster also needs the DOM torn down per test.
afterEach(() => cleanup());
