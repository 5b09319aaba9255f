import { screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Descriptions, DetailTabs, PageContainer } from '../../../core/ui';
import { renderUi } from './render';

function Where() {
  return <span data-testid="search">{useLocation().search}</span>;
}

const tabs = [
  { key: 'info', label: '基本信息', content: <p>info body</p> },
  { key: 'secret', label: '机密', content: <p>secret body</p>, visible: false },
  { key: 'logs', label: '日志', content: () => <p>logs body</p> },
];

describe('DetailTabs', () => {
  it('defaults to the first tab and writes activeKey to the URL', async () => {
    const { user } = renderUi(
      <PageContainer title="资产详情">
        <DetailTabs tabs={tabs} />
        <Where />
      </PageContainer>,
    );
    expect(screen.getByRole('heading', { name: '资产详情' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab')).toHaveLength(2);
    expect(screen.queryByRole('tab', { name: '机密' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '基本信息' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('info body')).toBeInTheDocument();
    await user.click(await screen.findByRole('tab', { name: '日志' }));
    expect(screen.getByText('logs body')).toBeInTheDocument();
    expect(screen.queryByText('info body')).not.toBeInTheDocument();
    expect(screen.getByTestId('search')).toHaveTextContent('?activeKey=logs');
  });

  it('opens the tab named in the URL, ignoring hidden ones', () => {
    renderUi(<DetailTabs tabs={tabs} />, { route: '/asset/1?activeKey=logs' });
    expect(screen.getByText('logs body')).toBeInTheDocument();
  });

  it('falls back to the first tab for a hidden key', () => {
    renderUi(<DetailTabs tabs={tabs} />, { route: '/asset/1?activeKey=secret' });
    expect(screen.queryByText('secret body')).not.toBeInTheDocument();
    expect(screen.getByText('info body')).toBeInTheDocument();
  });
});

describe('Descriptions', () => {
  it('renders label/value pairs with - for empty values', () => {
    renderUi(
      <Descriptions
        items={[
          { label: '名称', value: 'web-1' },
          { label: '描述', value: '' },
          { label: '隐藏', value: 'x', visible: false },
        ]}
      />,
    );
    expect(screen.getByText('名称:')).toBeInTheDocument();
    expect(screen.getByText('web-1')).toBeInTheDocument();
    expect(screen.getByText('-')).toBeInTheDocument();
    expect(screen.queryByText('隐藏:')).not.toBeInTheDocument();
  });
});
