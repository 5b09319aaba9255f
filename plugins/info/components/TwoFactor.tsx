import { confirm, DangerButton, LoadFailed, useAccountApi, useBus, useQuery, useQueryClient, useTranslation } from '@/core';
import { Button, Field, Input, makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { ArrowClockwiseRegular } from '@fluentui/react-icons/svg/arrow-clockwise';
import { CheckmarkCircleFilled } from '@fluentui/react-icons/svg/checkmark-circle';
import { CopyRegular } from '@fluentui/react-icons/svg/copy';
import { WarningFilled } from '@fluentui/react-icons/svg/warning';
import { type FormEvent, type ReactNode, useState } from 'react';
import { ACCOUNT_NS, useAccountInfo, useCopy, usePanelStyles, useRefreshAccount } from './shared';

interface TotpBinding {
  qr?: string;
  secret?: string;
}

const BINDING_QUERY_KEY = ['core', 'account', 'reload-totp'] as const;

const useStyles = makeStyles({
  result: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    textAlign: 'center',
    gap: tokens.spacingVerticalM,
    paddingTop: tokens.spacingVerticalXL,
    paddingBottom: tokens.spacingVerticalXL,
  },
  resultIcon: { fontSize: '64px' },
  success: { color: tokens.colorStatusSuccessForeground1 },
  warning: { color: tokens.colorStatusWarningForeground1 },
  resultTitle: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  qr: {
    width: '200px',
    height: '200px',
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  qrBox: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, alignItems: 'flex-start' },
  secret: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

function Result({ tone, title, text, actions }: { tone: 'success' | 'warning'; title: string; text: string; actions: ReactNode }) {
  const styles = useStyles();
  const panel = usePanelStyles();
  const Icon = tone === 'success' ? CheckmarkCircleFilled : WarningFilled;
  return (
    <div className={styles.result}>
      <Icon className={mergeClasses(styles.resultIcon, styles[tone])} aria-hidden />
      <p className={styles.resultTitle} role="status">
        {title}
      </p>
      <Text>{text}</Text>
      <div className={panel.actions}>{actions}</div>
    </div>
  );
}

/**
 * 双因素认证 (TOTP): the status from /account/info `enableTotp`; binding shows the QR code of reload-totp and its
 * secret as text (for users without a camera), then confirm-totp `{totp, secret}`. Nothing is stored before confirm.
 */
export function TwoFactor() {
  const panel = usePanelStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const account = useAccountApi();
  const bus = useBus();
  const refresh = useRefreshAccount();
  const { data: info, isPending, error, refetch } = useAccountInfo();
  const [binding, setBinding] = useState(false);
  const [busy, setBusy] = useState(false);

  const unbind = async () => {
    const ok = await confirm({ title: t('account.totp.unbindTitle'), message: t('account.totp.unbindText'), confirmText: t('account.totp.unbindOk'), danger: true });
    if (!ok) return;
    setBusy(true);
    if (await account.resetTotp()) {
      bus.emit('notify', { intent: 'success', message: t('account.totp.unbound') });
      await refresh();
    }
    setBusy(false);
  };

  let body: ReactNode;
  if (binding) {
    body = (
<TotpBind onDone={() => setBinding(false)} onCancel={() => setBinding(false)} />
    );
  } else if (isPending) {
    body = <Spinner size="small" label={t('account.loading')} />;
  } else if (error) {
    // Unknown status: offering 开启 (or 解绑) on a guess would be wrong either way.
    body = <LoadFailed error={error} onRetry={() => void refetch()} />;
  } else if (info?.enableTotp) {
    body = (
      <Result
        tone="success"
        title={t('account.totp.enabledTitle')}
        text={t('account.totp.enabledText')}
        actions={
          <>
            <DangerButton appearance="primary" disabled={busy} onClick={() => void unbind()}>
              {t('account.totp.unbind')}
            </DangerButton>
            <Button disabled={busy} onClick={() => setBinding(true)}>
              {t('account.totp.rebind')}
            </Button>
          </>
        }
      />
    );
  } else {
    body = (
      <Result
        tone="warning"
        title={t('account.totp.disabledTitle')}
        text={t('account.totp.disabledText')}
        actions={
          <Button appearance="primary" onClick={() => setBinding(true)}>
            {t('account.totp.enable')}
          </Button>
        }
      />
    );
  }

  return (
    <section aria-labelledby="account-totp-heading">
      <h2 id="account-totp-heading" className={panel.heading}>
        {t('account.totp.heading')}
      </h2>
      {body}
    </section>
  );
}

function TotpBind({ onDone, onCancel }: { onDone: () => void; onCancel: () => void }) {
  const panel = usePanelStyles();
  const styles = useStyles();
  const { t } = useTranslation(ACCOUNT_NS);
  const account = useAccountApi();
  const bus = useBus();
  const queryClient = useQueryClient();
  const refresh = useRefreshAccount();
  const copy = useCopy();
  // A fresh secret every time the binding opens (gcTime 0): nothing is kept once the form is gone.
  const { data, isFetching, refetch } = useQuery<TotpBinding>({
    queryKey: BINDING_QUERY_KEY,
    queryFn: () => account.reloadTotp<TotpBinding>(),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const secret = typeof data?.secret === 'string' ? data.secret : '';
  const qr = typeof data?.qr === 'string' ? data.qr : '';
  const codeError = touched && code.trim() === '' ? t('account.totp.codeRequired') : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (code.trim() === '' || secret === '' || busy) return;
    setBusy(true);
    const ok = await account.confirmTotp({ totp: code.trim(), secret });
    if (!ok) {
      // The client showed the server's reason (TOTP 验证失败，请重试); let the user try the next code.
      setBusy(false);
      return;
    }
    bus.emit('notify', { intent: 'success', message: t('account.totp.enabled') });
    queryClient.removeQueries({ queryKey: BINDING_QUERY_KEY });
    await refresh();
    onDone();
  };

  return (
    <form className={panel.form} onSubmit={submit} noValidate>
      <Field label={t('account.totp.qr')} hint={t('account.totp.qrHelp')}>
        <div className={styles.qrBox}>
          {isFetching ? (
            <Spinner size="small" label={t('account.loading')} />
          ) : qr ? (
            <img className={styles.qr} src={`data:image/png;base64,${qr}`} alt={t('account.totp.qrAlt')} />
          ) : (
            <Text role="alert">{t('account.totp.qrFailed')}</Text>
          )}
          <Button icon={<ArrowClockwiseRegular />} disabled={isFetching} onClick={() => void refetch()}>
            {t('account.totp.reload')}
          </Button>
        </div>
      </Field>
      {secret && !isFetching ? (
        <Field label={t('account.totp.secret')} hint={t('account.totp.secretHelp')}>
          <div className={styles.secret}>
            <code className={panel.mono} data-testid="info.totp-secret">
              {secret}
            </code>
            <Button size="small" appearance="subtle" icon={<CopyRegular />} aria-label={t('account.totp.copySecret')} onClick={() => void copy(secret)} />
          </div>
        </Field>
      ) : null}
      <Field label={t('account.totp.code')} required validationMessage={codeError}>
        <Input
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder={t('account.totp.codePlaceholder')}
          value={code}
          onChange={(_, d) => setCode(d.value)}
        />
      </Field>
      <div className={panel.actions}>
        <Button type="submit" appearance="primary" disabled={busy || secret === '' || isFetching}>
          {t('account.totp.submit')}
        </Button>
        <Button
          disabled={busy}
          onClick={() => {
            queryClient.removeQueries({ queryKey: BINDING_QUERY_KEY });
            onCancel();
          }}
        >
          {t('account.totp.cancel')}
        </Button>
      </div>
    </form>
  );
}
