import { FormDialog, useEndpoints, useQuery, useTranslation } from '@/core';
import { GRANT_KEYS, type GrantRow, grantApi } from '../api';

interface Values extends Record<string, unknown> {
  userId: string;
}

export interface MemberPickDialogProps {
  /** The group's grant whose reach is asked about; null = closed. */
  grant: GrantRow | null;
  onClose: () => void;
  onPicked: (member: { id: string; name: string }) => void;
}

/** 为什么 on a group's grant: the access rule answers for a user, so a member of the group is picked first. */
export function MemberPickDialog({ grant, onClose, onPicked }: MemberPickDialogProps) {
  const { t } = useTranslation('strategy');
  const grants = useEndpoints(grantApi);
  const groupId = grant?.userGroupId ?? '';
  const members = useQuery({ queryKey: GRANT_KEYS.members(groupId), queryFn: () => grants.members(groupId), enabled: grant !== null });
  const none = members.isSuccess && members.data.length === 0;

  return (
    <FormDialog<Values>
      open={grant !== null}
      onClose={onClose}
      title={grant ? t('grants.pick.title', { group: grant.userGroupName, asset: grant.assetName }) : ''}
      okText={t('grants.pick.ok')}
      initialValues={{ userId: '' }}
      loading={members.isPending}
      error={members.error ?? (none ? new Error(t('grants.pick.empty')) : undefined)}
      fields={[
        {
          name: 'userId',
          label: t('grants.pick.member'),
          type: 'select',
          required: true,
          options: members.data ?? [],
        },
      ]}
      onSubmit={(v) => {
        const member = members.data?.find((m) => m.value === v.userId);
        if (member) onPicked({ id: String(member.value), name: member.label });
      }}
    />
  );
}
