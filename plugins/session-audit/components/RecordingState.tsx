import { useTranslation } from '@/core';
import { Badge, MessageBar, MessageBarBody } from '@fluentui/react-components';
import type { SessionRow } from './api';

/** The failure codes the locale names in words (`recording.reasons.<code>`); any other is shown as its code. */
const NAMED_REASONS = ['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EACCES', 'EPERM', 'ENOENT', 'EFBIG', 'EMFILE', 'ENFILE', 'EPIPE', 'ETIMEDOUT'] as const;
type NamedReason = (typeof NAMED_REASONS)[number];
const isNamed = (code: string): code is NamedReason => (NAMED_REASONS as readonly string[]).includes(code);

/**
 * "录像不完整：磁盘已满（12:03:14）" for a session whose recording could not be written (the server's
 * `recordingIncomplete`, `recordingFailure`, `recordingFailedAt`; a 1.3.9 server sends none: undefined). The time is the
 * clock time when the failure came the day the session connected, the whole date otherwise.
 */
export function useRecordingIncomplete(s: Pick<SessionRow, 'recordingIncomplete' | 'recordingFailure' | 'recordingFailedAt' | 'connectedTime'> | undefined): string | undefined {
  const { t } = useTranslation('session-audit');
  if (!s?.recordingIncomplete) return undefined;
  const code = s.recordingFailure ?? '';
  const reason = isNamed(code) ? t(`recording.reasons.${code}`) : code || t('recording.unknown');
  const at = s.recordingFailedAt ?? '';
  const sameDay = at.slice(0, 10) === s.connectedTime.slice(0, 10);
  const time = sameDay ? at.slice(11) : at;
  return time ? t('recording.incompleteAt', { reason, time }) : t('recording.incomplete', { reason });
}

/** The history list's mark beside the close reason. */
export function RecordingIncompleteBadge({ session }: { session: SessionRow }) {
  const text = useRecordingIncomplete(session);
  if (!text) return null;
  return (
    <Badge appearance="tint" color="warning" shape="rounded">
      {text}
    </Badge>
  );
}

/** The player's notice above the recording: it ends where writing failed. */
export function RecordingIncompleteNotice({ session }: { session: SessionRow | undefined }) {
  const text = useRecordingIncomplete(session);
  if (!text) return null;
  return (
    <MessageBar intent="warning">
      <MessageBarBody>{text}</MessageBarBody>
    </MessageBar>
  );
}
