// Jumpgate console UI kit: generic pieces that know nothing of bastions (domain widgets live in domain/, `@/domain`).
// Strings come from the `kit` namespace, keys `ui.*`.
export { BatchProgress, runInChunks, useBatchRun } from './BatchProgress';
export type { BatchProgressProps, BatchProgressState, BatchRun } from './BatchProgress';
export { CheckTree, checkedValues, computeCheckState } from './CheckTree';
export type { CheckState, CheckTreeNode, CheckTreeProps } from './CheckTree';
export { ConfirmDialog, ConfirmHost, confirm, useConfirm, useConfirmDelete } from './ConfirmDialog';
export type { ConfirmDialogProps, ConfirmOptions } from './ConfirmDialog';
export { CopyText } from './CopyText';
export type { CopyTextProps } from './CopyText';
export { useEndpoints, useRecordDialog, useTableActions } from './crud';
export type { RecordDialog, TableActions } from './crud';
export { DangerButton } from './DangerButton';
export { Descriptions } from './Descriptions';
export type { DescriptionItem, DescriptionsProps } from './Descriptions';
export { DetailTabs } from './DetailTabs';
export { downloadUrl, startDownload, textFileHref, useDownload } from './download';
export type { DownloadQuery } from './download';
export type { DetailTab, DetailTabsProps } from './DetailTabs';
export { EmptyState } from './EmptyState';
export type { EmptyStateProps } from './EmptyState';
export { formatBytes, formatDateTime, formatDuration, fromNow, useFormatDuration } from './format';
export type { UiTranslate } from './i18n';
export { FormDialog } from './form/FormDialog';
export type { FormDialogProps, FormRecord } from './form/FormDialog';
export { DateTimeField } from './form/DateTimeField';
export type { DateTimeFieldProps } from './form/DateTimeField';
export { FormFields } from './form/FormFields';
export { SearchableMultiSelect } from './form/SearchableMultiSelect';
export type { SearchableMultiSelectProps } from './form/SearchableMultiSelect';
export { TagInput } from './form/TagInput';
export type { TagInputProps } from './form/TagInput';
export type { FormFieldsProps } from './form/FormFields';
export type { FieldOption, FieldType, FormErrors, FormField, FormItem, FormSection, FormValues } from './form/types';
export { useFormState } from './form/useFormState';
export type { FormState } from './form/useFormState';
export { isEmptyValue, validateField, validateValues } from './form/validation';
export { ImportDialog } from './ImportDialog';
export { LoadFailed } from './LoadFailed';
export type { LoadFailedProps } from './LoadFailed';
export type { ImportColumn, ImportDialogProps } from './ImportDialog';
export { NOTIFICATION_TIMEOUT, NotificationHost, TOAST_TIMEOUT } from './NotificationHost';
export type { NotificationHostProps, NotifyBus, NotifyEvent } from './NotificationHost';
export { PageContainer, PageHeader } from './PageContainer';
export type { PageContainerProps, PageHeaderProps } from './PageContainer';
export { RecordPage } from './RecordPage';
export { RelativeTime } from './RelativeTime';
export type { RecordPageProps } from './RecordPage';
export { StatusBadge } from './StatusBadge';
export type { StatusBadgeProps, StatusTone } from './StatusBadge';
export { splitTags, TagList } from './TagList';
export type { TagListProps } from './TagList';
export { columnSettingsKey } from './columnSettings';
export type { ColumnsState } from './columnSettings';
export { AddButton, RowActions } from './table/RowActions';
export { Pager } from './table/Pager';
export type { PagerProps } from './table/Pager';
export type { AddButtonProps, RowAction, RowActionsProps } from './table/RowActions';
export { ServerTable } from './table/ServerTable';
export { pageSource } from './table/pageSource';
export type {
  BatchAction,
  PageParams,
  PageQuery,
  PageResult,
  PageSource,
  RemoveAction,
  RowId,
  SearchField,
  SearchFieldOption,
  ServerTableCards,
  ServerTableColumn,
  ServerTableHandle,
  ServerTableProps,
  SortOrder,
  TableView,
} from './table/types';

// Rules for form fields (`rule: z.string().check(z.regex(…))`): zod's tree-shakable flavour.
export { z } from 'zod/mini';
