import { useTranslation } from '@/core';
import { makeStyles, Menu, MenuButton, MenuItem, MenuList, MenuPopover, MenuTrigger, tokens } from '@fluentui/react-components';
import { DeleteRegular } from '@fluentui/react-icons/svg/delete';
import { MoreHorizontalRegular } from '@fluentui/react-icons/svg/more-horizontal';

const useStyles = makeStyles({
  danger: { color: tokens.colorStatusDangerForeground1, ':hover': { color: tokens.colorStatusDangerForeground1 } },
});

/**
 * A list's 清空, out of the way: an item of the toolbar's ⋯ 更多操作 menu (never a red button beside the search), in
 * the danger colour, disabled while the list is empty. The caller gates it and asks before clearing.
 */
export function ClearAllMenu({ label, disabled, onClick }: { label: string; disabled: boolean; onClick: () => void }) {
  const { t } = useTranslation('log-audit');
  const styles = useStyles();
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <MenuButton appearance="subtle" icon={<MoreHorizontalRegular />}>
          {t('more')}
        </MenuButton>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuItem className={disabled ? undefined : styles.danger} icon={<DeleteRegular />} disabled={disabled} onClick={onClick}>
            {label}
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
