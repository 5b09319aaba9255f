import type { ApiClient } from '@/core';

export interface Announcement {
  id: string;
  title: string;
  content: string;
  created: string;
}

export interface Paging<T> {
  total: number;
  items: T[];
}

// Endpoint functions take the client, so they are testable without React.
export const listAnnouncements = (api: ApiClient, pageIndex: number, pageSize: number) =>
  api.get<Paging<Announcement>>('/announcements/paging', { params: { pageIndex, pageSize } });
export const getAnnouncement = (api: ApiClient, id: string) => api.get<Announcement>(`/announcements/${id}`);
export const deleteAnnouncement = (api: ApiClient, id: string) => api.delete<null>(`/announcements/${id}`);
