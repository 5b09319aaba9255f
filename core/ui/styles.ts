import { makeStyles, tokens } from '@fluentui/react-components';

/** Danger styling for Fluent buttons (Fluent v9 has no danger appearance). */
export const useDangerStyles = makeStyles({
  primary: {
    backgroundColor: tokens.colorStatusDangerBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorStatusDangerBackground3Hover, color: tokens.colorNeutralForegroundOnBrand },
    ':hover:active': {
      backgroundColor: tokens.colorStatusDangerBackground3Pressed,
      color: tokens.colorNeutralForegroundOnBrand,
    },
  },
  subtle: {
    color: tokens.colorStatusDangerForeground1,
    ':hover': { color: tokens.colorStatusDangerForeground1 },
    ':hover:active': { color: tokens.colorStatusDangerForeground1 },
  },
});
