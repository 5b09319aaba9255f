// A list page's first page, fetched by the entry before React arrived (the page's `opensWith`, core/app/early.ts):
// a ServerTable whose loader names its URL (`pageSource`) shows it in its first render, makes no request for it,
// and asks the server for everything after.
import { Button } from '@fluentui/react-components';
import { renderWithProviders } from '@/core/testing';
import { screen, waitFor, within } from '@testing-library/react';
import { useMemo, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useApi } from '../../../core/app/context';
import { pageSource, ServerTable, type ServerTableColumn } from '../../../core/ui';

interface Thing {
  id: string;
  name: string;
}

const columns: ServerTableColumn<Thing>[] = [{ key: 'name', header: '名称', render: (row) => row.name }];
const firstPage = '/things/paging?pageIndex=1&pageSize=10&order=&field=';
const envelope = (items: Thing[]) => ({ code: 1, message: 'success', data: { total: items.length, items } });

function Things() {
  const api = useApi();
  const fetchPage = useMemo(() => pageSource<Thing>(api, '/things/paging'), [api]);
  return <ServerTable<Thing> tableKey="things" title="物品" columns={columns} queryKey={['things']} fetchPage={fetchPage} getRowId={(row) => row.id} />;
}

/** The table mounts on a click: by then the early answer has arrived, as it has when a real page renders. */
function OpenLater() {
  const [open, setOpen] = useState(false);
  return open ? <Things /> : <Button onClick={() => setOpen(true)}>open</Button>;
}

describe('ServerTable and the page the entry fetched at start', () => {
  it('shows it in the first render, with no request for it, then asks the server on refresh', async () => {
    const { user, api } = await renderWithProviders(<OpenLater />, {
      api: { 'GET /things/paging': { total: 1, items: [{ id: 't2', name: 'from the server' }] } },
      early: { [firstPage]: envelope([{ id: 't1', name: 'fetched at start' }]) },
    });
    // What the table body holds each time the document changes: its first state must already be the rows.
    const bodies: string[] = [];
    const observer = new MutationObserver(() => {
      const body = document.querySelector('tbody');
      if (body) bodies.push(body.textContent ?? '');
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    await user.click(await screen.findByRole('button', { name: 'open' }));
    const table = screen.getByRole('table');
    expect(within(table).getByText('fetched at start')).toBeInTheDocument();
    observer.disconnect();
    expect(bodies[0]).toContain('fetched at start'); // no empty or loading table first
    expect(api.calls.filter((call) => call.path === '/things/paging')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '刷新' }));
    expect(await within(table).findByText('from the server')).toBeInTheDocument();
    expect(api.calls.map((call) => call.url)).toEqual([firstPage]);
  });

  it('asks the server as usual when nothing was fetched at start', async () => {
    const { user, api } = await renderWithProviders(<OpenLater />, {
      api: { 'GET /things/paging': { total: 1, items: [{ id: 't2', name: 'from the server' }] } },
    });
    await user.click(await screen.findByRole('button', { name: 'open' }));
    expect(await screen.findByText('from the server')).toBeInTheDocument();
    await waitFor(() => expect(api.calls.map((call) => call.url)).toEqual([firstPage]));
  });
});
