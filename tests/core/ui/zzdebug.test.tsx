import { Button } from '@fluentui/react-components';
import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { FormDialog } from '../../../core/ui';
import { renderUi } from './render';

function Harness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>open</Button>
      <FormDialog open={open} onClose={() => setOpen(false)} title="T" fields={[{ name: 'a', label: 'A', required: true }, { name: 'b', label: 'B', type: 'number' }, { name: 'c', label: 'C', type: 'select', options: [{ value: 'x', label: 'X' }] }]} initialValues={{ a: '' }} onSubmit={async () => {}} />
    </>
  );
}

const log: string[] = [];
const orig = HTMLElement.prototype.focus;
HTMLElement.prototype.focus = function (this: HTMLElement, o?: FocusOptions) {
  const st = (new Error().stack ?? '').split('\n').slice(2, 9).map((l) => l.trim().replace(/\(.*node_modules\//, '(').slice(0, 110)).join(' | ');
  log.push(`${this.className.slice(0, 30)} ah=${this.getAttribute('aria-hidden')} :: ${st}`);
  return orig.call(this, o);
};
import { beforeAll } from 'vitest';
import { warmUpFluent } from './render';
beforeAll(warmUpFluent);
describe('dbg', () => {
  for (let i = 0; i < 8; i++) {
    it(`run ${i}`, async () => {
      const { user } = renderUi(<Harness />);
      await user.click(screen.getByRole('button', { name: 'open' }));
      const d = await screen.findByRole('dialog', {}, { timeout: 3000 }).catch(() => null);
      if (!d) {
        const s = document.querySelector('.fui-DialogSurface');
        console.log('FAIL', i, s?.getAttribute('aria-hidden'), document.activeElement?.outerHTML.slice(0, 120));
        await new Promise((r) => setTimeout(r, 1000));
        console.log(log.join('\n'));
        console.log('LATER', s?.getAttribute('aria-hidden'), document.activeElement?.outerHTML.slice(0, 120));
      }
      expect(d).not.toBeNull();
      await user.click(screen.getByRole('button', { name: '确定' }));
      await screen.findByText('请输入A');
      if (!screen.queryByRole('dialog')) {
        const s = document.querySelector('.fui-DialogSurface');
        console.log('FAIL2', i, s?.getAttribute('aria-hidden'), document.activeElement?.outerHTML.slice(0, 160));
      }
      expect(screen.getByRole('dialog')).toBeTruthy();
    });
  }
});
