// The lazy facade of the login plugin. Part of the login-screen budget: plain Fluent controls only.
import { ApiError, LanguageSwitch, PASS_CODE, useApi, useBranding, useLanding, useSession, useTranslation } from '@/core';
import { Button, Checkbox, Field, Input, makeStyles, tokens, typographyStyles } from '@fluentui/react-components';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { type LoginBody, type LoginData, postLogin, sessionUserOf } from './api';

// The two-factor prompt is a Fluent Dialog (~24 KB gzip): it stays out of the login screen's first load and is
// fetched when a log-in is submitted, so it is there by the time the server asks for a code (code 100).
const loadTotpDialog = () => import('./TotpDialog');
const TotpDialog = lazy(() => loadTotpDialog().then((m) => ({ default: m.TotpDialog })));

const useStyles = makeStyles({
  root: {
    minHeight: '100vh',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    justifyContent: 'center',
    gap: tokens.spacingVerticalXL,
    padding: tokens.spacingHorizontalL,
    boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground3,
  },
  lang: { position: 'absolute', top: tokens.spacingVerticalL, right: tokens.spacingHorizontalXL },
  brand: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalS, textAlign: 'center' },
  // Fluent's type ramp on plain elements, not <Title1>/<Text>: the login screen is on a size budget.
  title: { ...typographyStyles.title1, margin: 0 },
  description: { ...typographyStyles.body1, margin: 0, color: tokens.colorNeutralForeground3 },
  card: {
    width: '360px',
    maxWidth: '100%',
    boxSizing: 'border-box',
    padding: tokens.spacingHorizontalXXL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  error: { ...typographyStyles.body1, color: tokens.colorStatusDangerForeground1 },
  submit: { width: '100%' },
});

type Step = { kind: 'form' } | { kind: 'totp'; body: LoginBody };

const CLEARED_SESSION_KEYS = ['openKeys', 'current'];

function messageOf(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : '';
}

export function Login() {
  const styles = useStyles();
  const { t } = useTranslation('login');
  const api = useApi();
  const signIn = useSession((state) => state.signIn);
  const navigate = useNavigate();
  const landing = useLanding();
  const branding = useBranding();

  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [formError, setFormError] = useState<string | null>(null);
  const [totpError, setTotpError] = useState<string | null>(null);

  const finish = (data: LoginData) => {
    for (const key of CLEARED_SESSION_KEYS) {
      try {
        sessionStorage.removeItem(key);
      } catch {
        // storage unavailable: nothing to clear
      }
    }
    const user = sessionUserOf(data.info);
    signIn(data.token, user);
    navigate(landing(user), { replace: true });
  };

  /** One POST /login; returns normally on code 100 (second step) and code 1 (signed in), throws on refusal. */
  const attempt = async (body: LoginBody) => {
    const envelope = await postLogin(api, body);
    if (envelope.code === PASS_CODE) {
      setStep({ kind: 'totp', body });
      return;
    }
    finish(envelope.data);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (username === '' || password === '' || busy) return;
    setBusy(true);
    setFormError(null);
    void loadTotpDialog().catch(() => undefined); // warm the chunk while the server answers
    try {
      await attempt({ username, password, remember });
    } catch (error) {
      setFormError(messageOf(error) || t('validation.failed'));
    } finally {
      setBusy(false);
    }
  };

  const submitTotp = async (totp: string) => {
    if (step.kind !== 'totp' || busy) return;
    setBusy(true);
    setTotpError(null);
    try {
      await attempt({ ...step.body, totp });
    } catch (error) {
      setTotpError(messageOf(error) || t('validation.failed'));
    } finally {
      setBusy(false);
    }
  };

  const usernameError = touched && username === '' ? t('validation.username') : undefined;
  const passwordError = touched && password === '' ? t('validation.password') : undefined;

  return (
    <main className={styles.root}>
      <div className={styles.lang}>
        <LanguageSwitch />
      </div>
      <div className={styles.brand}>
        {/* data-brand: index.html's prerendered copy of this page gets the server's branding before any script. */}
        <h1 className={styles.title} data-brand="name">
          {branding.name}
        </h1>
        <p className={styles.description} data-brand="description" hidden={!branding.description}>
          {branding.description}
        </p>
      </div>
      <div className={styles.card}>
        <form className={styles.form} onSubmit={submit} noValidate aria-label={t('page.form')}>
          <Field label={t('fields.username')} required validationMessage={usernameError}>
            <Input
              name="username"
              autoComplete="username"
              placeholder={t('fields.username')}
              value={username}
              onChange={(_, data) => setUsername(data.value)}
            />
          </Field>
          <Field label={t('fields.password')} required validationMessage={passwordError}>
            <Input
              name="password"
              type="password"
              autoComplete="current-password"
              placeholder={t('fields.password')}
              value={password}
              onChange={(_, data) => setPassword(data.value)}
            />
          </Field>
          <Checkbox name="remember" label={t('fields.remember')} checked={remember} onChange={(_, data) => setRemember(data.checked === true)} />
          {formError ? (
            <div role="alert" className={styles.error}>
              {formError}
            </div>
          ) : null}
          <Button
            type="submit"
            appearance="primary"
            className={styles.submit}
            disabled={busy}
            aria-busy={busy}
          >
            {/* Text, not a Spinner: keeps Fluent's Spinner (~2.7 KB gzip) off the login screen. */}
            {busy && step.kind === 'form' ? t('actions.submitting') : t('actions.submit')}
          </Button>
        </form>
      </div>
      {step.kind === 'totp' ? (
        <Suspense fallback={null}>
          <TotpDialog
            open
            busy={busy}
            error={totpError}
            onSubmit={(code) => void submitTotp(code)}
            onCancel={() => {
              setStep({ kind: 'form' });
              setTotpError(null);
            }}
          />
        </Suspense>
      ) : null}
    </main>
  );
}
