import {
  Button,
  makeStyles,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  mergeClasses,
  tokens,
} from '@fluentui/react-components';
import { AddRegular } from '@fluentui/react-icons/svg/add';
import { MoreHorizontalRegular } from '@fluentui/react-icons/svg/more-horizontal';
import { Link, useNavigate } from 'react-router-dom';
import { useMenuGate } from '../../app/context';
import type { KeyGate } from '../../../shared/manifest.ts';
import { useConfirm, useConfirmDelete } from '../ConfirmDialog';
import { DangerButton } from '../DangerButton';
import { useUiT } from '../i18n';
import { useDangerStyles } from '../styles';

interface RowActionBase {
  key: string;
  label: string;
  /** Gate: hidden unless the user holds any of these menu keys. */
  menu?: KeyGate;
  /** Red: a DangerButton inline, a red item in the ⋯ menu. */
  danger?: boolean;
  /** Into the ⋯ menu instead of inline. */
  overflow?: boolean;
}

/** Runs a callback, optionally after asking. */
interface RowCommand extends RowActionBase {
  onClick: () => unknown;
  href?: never;
  /** Ask first: `true` = the standard delete-row confirm (您确认要删除此行吗?), or a title/message of your own. */
  confirm?: true | { title?: string; message?: string };
  /** Shown but not offered (e.g. a built-in record). */
  disabled?: boolean;
}

/** Navigates within the console: a real link inline (opens in a new tab too), a menu item in the ⋯ menu. */
interface RowLink extends RowActionBase {
  href: string;
  onClick?: never;
  confirm?: never;
  disabled?: never;
}

export type RowAction = RowCommand | RowLink;

export interface RowActionsProps {
  actions: readonly RowAction[];
}

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', flexWrap: 'nowrap', columnGap: tokens.spacingHorizontalXS },
});

/**
 * A table row's actions: gated inline buttons (danger → DangerButton) and a ⋯ menu for the `overflow` ones.
 * Renders nothing when no action is allowed, and no ⋯ button when no overflow action is — nor when only one is: that
 * one is an inline button (or link) like the others.
 */
export function RowActions({ actions }: RowActionsProps) {
  const t = useUiT();
  const styles = useStyles();
  const danger = useDangerStyles();
  const allowed = useMenuGate();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const confirmDelete = useConfirmDelete();

  const visible = actions.filter((action) => allowed(action.menu));
  if (visible.length === 0) return null;
  const menued = visible.filter((action) => action.overflow);
  // A ⋯ menu holding a single item is a click more for nothing: that item shows as a plain button after the others.
  const inline = menued.length === 1 ? [...visible.filter((action) => !action.overflow), ...menued] : visible.filter((action) => !action.overflow);
  const overflow = menued.length === 1 ? [] : menued;

  const run = async (action: RowCommand) => {
    if (action.confirm) {
      const ok =
        action.confirm === true
          ? await confirmDelete()
          : await confirm({ title: action.confirm.title, message: action.confirm.message, danger: action.danger });
      if (!ok) return;
    }
    await action.onClick();
  };

  return (
    <div className={styles.root}>
      {inline.map((action) => {
        if (action.href !== undefined) {
          return (
            <Link key={action.key} to={action.href}>
              {action.label}
            </Link>
          );
        }
        const Component = action.danger ? DangerButton : Button;
        return (
          <Component
            key={action.key}
            appearance="transparent"
            size="small"
            disabled={action.disabled}
            onClick={() => void run(action)}
          >
            {action.label}
          </Component>
        );
      })}
      {overflow.length > 0 ? (
        <Menu>
          <MenuTrigger disableButtonEnhancement>
            <Button appearance="transparent" size="small" icon={<MoreHorizontalRegular />} aria-label={t('ui.more')} />
          </MenuTrigger>
          <MenuPopover>
            <MenuList>
              {overflow.map((action) => (
                <MenuItem
                  key={action.key}
                  className={mergeClasses(action.danger && danger.subtle)}
                  disabled={action.disabled}
                  onClick={() => {
                    if (action.href !== undefined) navigate(action.href);
                    else void run(action);
                  }}
                >
                  {action.label}
                </MenuItem>
              ))}
            </MenuList>
          </MenuPopover>
        </Menu>
      ) : null}
    </div>
  );
}

export interface AddButtonProps {
  /**
   * Gate: hidden unless the user holds any of these menu keys (e.g. `user-add`). Left out only where every account
   * that sees the list may add to it (the portal's own records, e.g. 我的指令).
   */
  menu?: KeyGate;
  onClick: () => void;
  /** Defaults to 新建. */
  label?: string;
}

/** The toolbar's gated primary 新建 button. */
export function AddButton({ menu, onClick, label }: AddButtonProps) {
  const t = useUiT();
  const allowed = useMenuGate();
  if (!allowed(menu)) return null;
  return (
    <Button appearance="primary" icon={<AddRegular />} onClick={onClick}>
      {label ?? t('ui.add')}
    </Button>
  );
}
