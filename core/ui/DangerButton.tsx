import { Button, type ButtonProps, mergeClasses } from '@fluentui/react-components';
import { useDangerStyles } from './styles';

/** A Fluent `Button` in the danger colour: filled for `appearance="primary"`, red text otherwise (e.g. a row's 删除). */
export function DangerButton({ className, appearance = 'transparent', ...rest }: ButtonProps) {
  const styles = useDangerStyles();
  return (
    <Button
      {...rest}
      appearance={appearance}
      className={mergeClasses(appearance === 'primary' ? styles.primary : styles.subtle, className)}
    />
  );
}
