// The floor of this stack for a list page (bench:first-visit): React + Fluent UI v9 and one table of the users page,
// fetched from the real server with the stored token when the script runs. No layout, menu, router, query cache or
// strings: what a list page costs at the least with these libraries. Not part of the console.
import {
  FluentProvider,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  webLightTheme,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface UserRow {
  id: string;
  username: string;
  nickname: string;
  type: string;
}

const rows: Promise<UserRow[]> = fetch('/users/paging?pageIndex=1&pageSize=10&order=&field=', {
  headers: { 'X-Auth-Token': localStorage.getItem('X-Auth-Token') ?? '' },
})
  .then((res) => res.json() as Promise<{ data?: { items?: UserRow[] } }>)
  .then((body) => body.data?.items ?? []);

function ListFloor() {
  const [items, setItems] = useState<UserRow[]>([]);
  useEffect(() => {
    rows.then(setItems, () => setItems([]));
  }, []);
  return (
    <FluentProvider theme={webLightTheme}>
      <main style={{ padding: 24 }}>
        <Table aria-label="用户">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>用户名</TableHeaderCell>
              <TableHeaderCell>昵称</TableHeaderCell>
              <TableHeaderCell>类型</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {items.map((row) => (
              <TableRow key={row.id}>
                <TableCell>{row.username}</TableCell>
                <TableCell>{row.nickname}</TableCell>
                <TableCell>{row.type}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </main>
    </FluentProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
createRoot(container).render(<ListFloor />);
