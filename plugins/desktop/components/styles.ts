import { makeStyles, tokens } from '@fluentui/react-components';

/** The frame the three desktop pages share: a bar on top, the desktop below filling the window. */
export const useFrameStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground3 },
  bar: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    paddingLeft: tokens.spacingHorizontalS,
    paddingRight: tokens.spacingHorizontalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  title: { fontWeight: tokens.fontWeightSemibold, marginRight: tokens.spacingHorizontalM },
  grow: { flexGrow: 1 },
  body: { position: 'relative', display: 'flex', flexGrow: 1, minHeight: 0 },
  screen: { position: 'relative', flexGrow: 1, minWidth: 0, overflow: 'auto', backgroundColor: tokens.colorNeutralBackgroundInverted },
  notice: { position: 'absolute', top: tokens.spacingVerticalM, left: '50%', transform: 'translateX(-50%)', zIndex: 10, maxWidth: '90%' },
  message: { padding: tokens.spacingHorizontalXXL },
  fill: { width: '100%', height: '100%' },
  side: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    width: '320px',
    flexShrink: 0,
    padding: tokens.spacingHorizontalM,
    borderLeft: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflowY: 'auto',
  },
});
