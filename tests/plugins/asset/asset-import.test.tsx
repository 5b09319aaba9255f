import { type FakeRequest, renderPlugin, reply } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import asset from '../../../plugins/asset';
import { asAdmin, LISTS, page } from './fixtures';

vi.setConfig({ testTimeout: 30_000 });

const CSV = 'web-03,ssh,10.0.0.3,22,root,pw,,,前端,prod|web\nbad,ftp,10.0.0.4,21,root,pw,,,,\ndb-03,rdp,10.0.0.5,3389,admin,pw,,,,\n';

const rows = [
  { row: 1, name: 'web-03', protocol: 'ssh', ip: '10.0.0.3', port: 22, username: 'root', tags: ['prod', 'web'], error: null },
  { row: 2, name: 'bad', protocol: 'ftp', ip: '10.0.0.4', port: 21, username: 'root', tags: [], error: '协议不正确：ftp' },
  { row: 3, name: 'db-03', protocol: 'rdp', ip: '10.0.0.5', port: 3389, username: 'admin', tags: [], error: null },
];

/** The upload as the server would read it: the multipart part `file`, and whether it is a dry run. */
function upload(req: FakeRequest) {
  const body = req.body as FormData;
  return { file: body.get('file') as File, dryRun: req.query.dryRun === true || req.query.dryRun === 'true' };
}

async function openImport(importHandler: unknown) {
  const seen: { name: string; text: string; dryRun: boolean }[] = [];
  const view = await renderPlugin(asset, {
    route: '/asset',
    session: asAdmin(),
    api: {
      ...LISTS,
      'GET /assets/paging': page(),
      'POST /assets/import': async (req: FakeRequest) => {
        const { file, dryRun } = upload(req);
        seen.push({ name: file.name, text: await file.text(), dryRun });
        return typeof importHandler === 'function' ? importHandler(dryRun) : importHandler;
      },
    },
  });
  await view.user.click(await screen.findByRole('button', { name: '导入' }));
  const dialog = within(await screen.findByRole('dialog', { name: '导入资产' }));
  return { ...view, dialog, seen };
}

describe('asset import', () => {
  it('offers the sample and the note, previews the file with every row’s error, then imports the good rows', async () => {
    const { dialog, user, api, seen, eventsOf } = await openImport((dryRun: boolean) =>
      dryRun
        ? { successCount: 2, errorCount: 1, data: { '2': '协议不正确：ftp' }, rows }
        : { successCount: 2, errorCount: 1, data: { '2': '协议不正确：ftp' }, rows },
    );
    expect(dialog.getByText(/导入资产时，账号、密码和密钥、密码属于二选一/)).toBeInTheDocument();
    const sample = dialog.getByRole('link', { name: '下载示例' });
    expect(sample).toHaveAttribute('download', 'sample.csv');
    const href = sample.getAttribute('href') ?? '';
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(
      '\uFEFFname,ssh,127.0.0.1,22,username,password,privateKey,passphrase,description,tag1|tag2|tag3\n',
    );

    await user.upload(dialog.getByLabelText('选择文件'), new File([CSV], 'assets.csv', { type: 'text/csv' }));
    const preview = within(await dialog.findByRole('table', { name: '导入预览' }));
    expect(seen).toEqual([{ name: 'assets.csv', text: CSV, dryRun: true }]);
    expect(dialog.getByText('共 3 行，其中 1 行有错误，不会导入')).toBeInTheDocument();
    const bad = preview.getByText('协议不正确：ftp').closest('tr');
    expect(bad).toHaveAttribute('aria-invalid', 'true');
    expect(within(bad as HTMLElement).getByText('10.0.0.4:21')).toBeInTheDocument();
    const good = preview.getByText('web-03').closest('tr') as HTMLElement;
    expect(within(good).getByText('SSH')).toBeInTheDocument();
    expect(within(good).getByText('prod')).toBeInTheDocument();
    expect(api.callsTo('GET /assets/paging')).toHaveLength(1);

    await user.click(dialog.getByRole('button', { name: '导入 2 行' }));
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]).toEqual({ name: 'assets.csv', text: CSV, dryRun: false });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(eventsOf('notify')).toContainEqual({
      intent: 'warning',
      kind: 'notification',
      title: '导入资产完成',
      message: '共导入成功2条资产，失败1条资产。',
    });
    await waitFor(() => expect(api.callsTo('GET /assets/paging').length).toBeGreaterThan(1));
  });

  it('says all went well when every row imports', async () => {
    const good = rows.filter((r) => r.error === null);
    const { dialog, user, eventsOf } = await openImport({ successCount: 2, errorCount: 0, data: {}, rows: good });
    await user.upload(dialog.getByLabelText('选择文件'), new File([CSV], 'assets.csv'));
    expect(await dialog.findByText('共 2 行，均可导入')).toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: '导入 2 行' }));
    await waitFor(() =>
      expect(eventsOf('notify')).toContainEqual({ intent: 'success', kind: 'notification', title: '导入资产成功', message: '共导入成功2条资产。' }),
    );
  });

  it('shows why a file cannot be read, and a failed import as 1.3.9 words it', async () => {
    let refuse = true;
    const { dialog, user, eventsOf, api } = await openImport((dryRun: boolean) => {
      if (dryRun && refuse) return reply.envelope(-1, 'csv数据为空');
      if (dryRun) return { successCount: 1, errorCount: 0, data: {}, rows: [rows[0]] };
      return reply.envelope(-1, '导入文件过大');
    });
    await user.upload(dialog.getByLabelText('选择文件'), new File([''], 'empty.csv'));
    expect(await dialog.findByRole('alert')).toHaveTextContent('csv数据为空');
    expect(dialog.getByRole('button', { name: '导入' })).toBeDisabled();
    expect(eventsOf('notify')).toEqual([]); // shown in the dialog, not as a toast

    refuse = false;
    await user.upload(dialog.getByLabelText('选择文件'), new File([CSV], 'assets.csv'));
    await user.click(await dialog.findByRole('button', { name: '导入 1 行' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('导入文件过大');
    expect(eventsOf('notify')).toContainEqual({ intent: 'error', kind: 'notification', title: '导入资产失败', message: '导入文件过大' });
    expect(api.callsTo('GET /assets/paging')).toHaveLength(1);
  });
});
