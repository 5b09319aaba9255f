import { makeStyles, tokens } from '@fluentui/react-components';

export const useSharedStyles = makeStyles({
  tags: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalXS },
});
