import { Component, Fragment, type ReactNode } from 'react';
import { ChunkLoader } from './OnDemand';

interface BoundaryState {
  error: Error | null;
  /** Bumped by retry: the page is mounted afresh. */
  attempt: number;
}

/**
 * Every page renders inside this boundary (core/app/PluginPage.tsx): a page that throws replaces only the page
 * area, while the layout around it (menu, header, breadcrumb) keeps working. React reports each caught error once
 * to the console (`console.error`, its root's default `onCaughtError`), so the boundary does not log it again.
 */
export class PageBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  private readonly retry = () => this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));

  override render() {
    const { error, attempt } = this.state;
    if (error) {
      const load = () => import('./PageFailure').then((m) => () => <m.PageFailure error={error} onRetry={this.retry} />);
      return <ChunkLoader key={attempt} what="page error view" load={load} inline />;
    }
    return <Fragment key={attempt}>{this.props.children}</Fragment>;
  }
}
