// The lazy facade: one named export per page. This module becomes the chunk static/plugin-announcement-*.js.
import { Can, PageHeader, useApi, useBus, useMutation, useQuery, useQueryClient, useTranslation } from '@/core';
import {
  Button,
  makeStyles,
  Spinner,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { Link, useParams } from 'react-router-dom';
import { deleteAnnouncement, getAnnouncement, listAnnouncements } from './api';

const useStyles = makeStyles({
  page: { margin: tokens.spacingHorizontalL, padding: tokens.spacingHorizontalXXL, backgroundColor: tokens.colorNeutralBackground1 },
});

const LIST_KEY = ['announcement', 'list'] as const;

export function AnnouncementList() {
  const styles = useStyles();
  const { t } = useTranslation('announcement');
  const api = useApi();
  const bus = useBus();
  const queryClient = useQueryClient();
  const { data, isPending } = useQuery({ queryKey: LIST_KEY, queryFn: () => listAnnouncements(api, 1, 10) });
  const remove = useMutation({
    mutationFn: (id: string) => deleteAnnouncement(api, id),
    onSuccess: () => {
      bus.emit('notify', { intent: 'success', message: t('list.deleted') });
      void queryClient.invalidateQueries({ queryKey: LIST_KEY });
    },
  });

  return (
    <div className={styles.page}>
      <PageHeader title={t('list.title')} />
      {isPending ? (
        <Spinner label={t('list.loading')} />
      ) : (
        <Table aria-label={t('list.title')}>
          <TableHeader>
            <TableRow>
              <TableHeaderCell>{t('fields.title')}</TableHeaderCell>
              <TableHeaderCell>{t('fields.created')}</TableHeaderCell>
              <TableHeaderCell>{t('list.actions')}</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {(data?.items ?? []).map((item) => (
              <TableRow key={item.id}>
                <TableCell>
                  <Link to={`/announcement/${item.id}`}>{item.title}</Link>
                </TableCell>
                <TableCell>{item.created}</TableCell>
                <TableCell>
                  {/* Action gate: only users whose menus hold announcement-del see the button. */}
                  <Can menu="announcement-del">
                    <Button size="small" onClick={() => remove.mutate(item.id)} aria-label={t('list.deleteOne', { title: item.title })}>
                      {t('actions.del')}
                    </Button>
                  </Can>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

export function AnnouncementDetail() {
  const styles = useStyles();
  const { t } = useTranslation('announcement');
  const api = useApi();
  const { announcementId = '' } = useParams();
  const { data } = useQuery({ queryKey: ['announcement', 'one', announcementId], queryFn: () => getAnnouncement(api, announcementId) });
  return (
    <div className={styles.page}>
      <PageHeader title={data?.title ?? t('detail.title')} />
      <p>{data?.content}</p>
    </div>
  );
}
