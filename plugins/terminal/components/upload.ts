import { type Envelope, SUCCESS_CODE } from '@/core';
import { parseEnvelope } from '../api';

// The upload of one file to a session (contract §5.5): an XHR whose request progress is the browser → server leg, and
// whose response body streams the server → host leg as byte counts each followed by `㊥`, then the envelope.

export const PROGRESS_MARK = '\u32A5';

export interface UploadStream {
  /** Bytes the server has written to the host so far (the last count in the stream); 0 before any. */
  transferred: number;
  /** The envelope at the end of the stream, once it is complete. */
  envelope: Envelope | null;
}

/** Reads a (possibly still growing) upload response body. */
export function parseUploadStream(text: string): UploadStream {
  const parts = text.split(PROGRESS_MARK);
  const tail = parts.pop() ?? '';
  let transferred = 0;
  for (let i = parts.length - 1; i >= 0; i -= 1) {
    const count = Number(parts[i]);
    if (parts[i] !== '' && Number.isFinite(count)) {
      transferred = count;
      break;
    }
  }
  return { transferred, envelope: tail.trim() === '' ? null : parseEnvelope(tail) };
}

export interface UploadCallbacks {
  /** The browser → server leg: bytes sent of the request. */
  onSent: (loaded: number, total: number) => void;
  /** The server → host leg: bytes written to the host. */
  onTransferred: (bytes: number) => void;
}

export class UploadError extends Error {
  constructor(
    message: string,
    readonly cancelled = false,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export interface RunningUpload {
  done: Promise<void>;
  /** Stops the request; `done` rejects with a cancelled UploadError. */
  abort: () => void;
}

/** Posts `file` as the multipart part `file` to `url`, reporting both legs; fails with the server's message. */
export function uploadFile(url: string, file: File, { onSent, onTransferred }: UploadCallbacks): RunningUpload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<void>((resolve, reject) => {
    xhr.upload.onprogress = (event) => onSent(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.onprogress = () => onTransferred(parseUploadStream(xhr.responseText).transferred);
    xhr.onload = () => {
      const stream = parseUploadStream(xhr.responseText);
      if (xhr.status !== 200) return reject(new UploadError(stream.envelope?.message || `HTTP ${xhr.status}`));
      if (stream.envelope && stream.envelope.code !== SUCCESS_CODE) return reject(new UploadError(stream.envelope.message));
      onTransferred(Math.max(stream.transferred, file.size));
      resolve();
    };
    xhr.onerror = () => reject(new UploadError(''));
    xhr.onabort = () => reject(new UploadError('', true));
  });
  const body = new FormData();
  body.append('file', file, file.name);
  xhr.open('POST', url);
  xhr.send(body);
  return { done, abort: () => xhr.abort() };
}
