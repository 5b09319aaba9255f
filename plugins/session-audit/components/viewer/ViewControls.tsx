import { useTranslation } from '@/core';
import { Button, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components';
import { FullScreenMaximizeRegular } from '@fluentui/react-icons/svg/full-screen-maximize';
import { FullScreenMinimizeRegular } from '@fluentui/react-icons/svg/full-screen-minimize';
import { ZoomFitRegular } from '@fluentui/react-icons/svg/zoom-fit';
import { ZoomInRegular } from '@fluentui/react-icons/svg/zoom-in';
import { ZoomOutRegular } from '@fluentui/react-icons/svg/zoom-out';
import { type RefObject, useEffect, useState } from 'react';
import type { Zoom } from './FittedTerminal';
import { MAX_ZOOM, MIN_ZOOM, zoomStep } from './scale';

const useStyles = makeStyles({
  group: { display: 'flex', alignItems: 'center', columnGap: tokens.spacingHorizontalXS, flexWrap: 'wrap' },
  scale: { minWidth: '6em', textAlign: 'center' },
});

export interface ViewControlsProps {
  zoom: Zoom;
  /** The scale shown now (fitted or chosen). */
  scale: number;
  onZoom: (zoom: Zoom) => void;
  /** What goes full screen (the page). */
  fullscreen: RefObject<HTMLElement | null>;
  /** For buttons on a dark bar (the monitor's). */
  buttonClassName?: string;
}

/** Zoom out / in / fit to the window, and full screen: labelled buttons, in the tab order. */
export function ViewControls({ zoom, scale, onZoom, fullscreen, buttonClassName }: ViewControlsProps) {
  const { t } = useTranslation('session-audit');
  const styles = useStyles();
  const [full, setFull] = useState(false);

  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement != null && document.fullscreenElement === fullscreen.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [fullscreen]);

  const toggleFullscreen = () => {
    const target = fullscreen.current;
    if (!target) return;
    // A browser that refuses (an iframe without allowfullscreen) leaves the page as it was.
    const done = full ? document.exitFullscreen?.() : target.requestFullscreen?.();
    done?.catch(() => undefined);
  };

  const percent = Math.round(scale * 100);
  return (
    <div role="toolbar" aria-label={t('viewer.controls')} className={styles.group}>
      <Button
        size="small"
        appearance="subtle"
        className={buttonClassName}
        icon={<ZoomOutRegular />}
        disabled={scale <= MIN_ZOOM + 0.005}
        onClick={() => onZoom(zoomStep(scale, -1))}
      >
        {t('viewer.zoomOut')}
      </Button>
      <Text className={mergeClasses(styles.scale, buttonClassName)}>{t('viewer.scale', { percent })}</Text>
      <Button
        size="small"
        appearance="subtle"
        className={buttonClassName}
        icon={<ZoomInRegular />}
        disabled={scale >= MAX_ZOOM - 0.005}
        onClick={() => onZoom(zoomStep(scale, 1))}
      >
        {t('viewer.zoomIn')}
      </Button>
      <Button
        size="small"
        appearance="subtle"
        className={buttonClassName}
        icon={<ZoomFitRegular />}
        aria-pressed={zoom === 'fit'}
        onClick={() => onZoom('fit')}
      >
        {t('viewer.fit')}
      </Button>
      <Button
        size="small"
        appearance="subtle"
        className={buttonClassName}
        icon={full ? <FullScreenMinimizeRegular /> : <FullScreenMaximizeRegular />}
        onClick={toggleFullscreen}
      >
        {full ? t('viewer.exitFullscreen') : t('viewer.fullscreen')}
      </Button>
    </div>
  );
}
