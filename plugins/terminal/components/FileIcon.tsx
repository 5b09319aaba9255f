import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DocumentRegular } from '@fluentui/react-icons/svg/document';
import { DocumentPdfRegular } from '@fluentui/react-icons/svg/document-pdf';
import { DocumentTextRegular } from '@fluentui/react-icons/svg/document-text';
import { FolderRegular } from '@fluentui/react-icons/svg/folder';
import { FolderZipRegular } from '@fluentui/react-icons/svg/folder-zip';
import { ImageRegular } from '@fluentui/react-icons/svg/image';
import { LinkRegular } from '@fluentui/react-icons/svg/link';

const useStyles = makeStyles({
  icon: { fontSize: '18px', flexShrink: 0 },
  folder: { color: tokens.colorPaletteMarigoldForeground1 },
});

const BY_EXTENSION: Record<string, typeof DocumentRegular> = {
  pdf: DocumentPdfRegular,
  txt: DocumentTextRegular,
  md: DocumentTextRegular,
  log: DocumentTextRegular,
  doc: DocumentTextRegular,
  docx: DocumentTextRegular,
  xls: DocumentTextRegular,
  xlsx: DocumentTextRegular,
  png: ImageRegular,
  jpg: ImageRegular,
  jpeg: ImageRegular,
  gif: ImageRegular,
  svg: ImageRegular,
  webp: ImageRegular,
  bmp: ImageRegular,
  zip: FolderZipRegular,
  gz: FolderZipRegular,
  tgz: FolderZipRegular,
  tar: FolderZipRegular,
  xz: FolderZipRegular,
  bz2: FolderZipRegular,
};

/** A folder, a link, or a file's icon by its extension (screens §5.1). */
export function FileIcon({ name, isDir, isLink }: { name: string; isDir: boolean; isLink: boolean }) {
  const styles = useStyles();
  if (isDir) return <FolderRegular aria-hidden className={mergeClasses(styles.icon, styles.folder)} />;
  if (isLink) return <LinkRegular aria-hidden className={styles.icon} />;
  const extension = name.includes('.') ? (name.split('.').pop() ?? '').toLowerCase() : '';
  const Icon = BY_EXTENSION[extension] ?? DocumentRegular;
  return <Icon aria-hidden className={styles.icon} />;
}
