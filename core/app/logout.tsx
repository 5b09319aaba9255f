import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { queryClientFor } from '../query/hooks';
import { useCore } from './context';

/** POST /account/logout; on success forget the session and go to /login. */
export function useLogout(): () => Promise<boolean> {
  const services = useCore();
  const { account, session } = services;
  const navigate = useNavigate();
  return useCallback(async () => {
    const ok = await account.logout();
    if (ok) {
      session.getState().clear();
      queryClientFor(services).clear();
      navigate('/login');
    }
    return ok;
  }, [services, account, session, navigate]);
}

/** The confirm `您确定要退出登录吗?` (确定 / 取消). */
export function LogoutConfirm({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('core');
  const logout = useLogout();
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, data) => onOpenChange(data.open)}>
      <DialogSurface aria-describedby="logout-confirm-text">
        <DialogBody>
          <DialogTitle>{t('logout.title')}</DialogTitle>
          <DialogContent id="logout-confirm-text">{t('logout.confirm')}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={() => onOpenChange(false)}>
              {t('logout.cancel')}
            </Button>
            <Button
              appearance="primary"
              onClick={() => {
                onOpenChange(false);
                void logout();
              }}
            >
              {t('logout.ok')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
