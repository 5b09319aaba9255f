import type { ComponentProps } from 'react';
import type { Can } from '../app/context';

/** The menu keys that gate a kit button: whatever `<Can menu>` accepts (one key or a list, any of them passes). */
export type MenuGate = ComponentProps<typeof Can>['menu'];
