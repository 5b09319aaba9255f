// The floor of this stack for bench:first-visit: only React + Fluent UI v9 and a login form (username, password,
// button), built by the benchmark with Vite's defaults into a temp folder. Not part of the console.
import { Button, Field, FluentProvider, Input, webLightTheme } from '@fluentui/react-components';
import { createRoot } from 'react-dom/client';

function Floor() {
  return (
    <FluentProvider theme={webLightTheme}>
      <main style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <form style={{ width: 360, display: 'flex', flexDirection: 'column', gap: 12 }} onSubmit={(event) => event.preventDefault()}>
          <Field label="用户名" required>
            <Input name="username" autoComplete="username" />
          </Field>
          <Field label="密码" required>
            <Input name="password" type="password" autoComplete="current-password" />
          </Field>
          <Button type="submit" appearance="primary">
            登录
          </Button>
        </form>
      </main>
    </FluentProvider>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
createRoot(container).render(<Floor />);
