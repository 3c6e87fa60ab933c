import type { SortOrder, UserSort } from '../api/list-users'

/** Page sizes the admin tables offer; the server allows at most 100. */
export const PAGE_SIZES = [25, 50, 100] as const

export interface Paging {
  page: number
  pageSize: number
}

/**
 * What the admin changes in a server-paged list. Any filter change (search
 * text, sort, profession, ...) goes back to page 1: the old page number means
 * nothing in a different result set.
 */
export type ListAction<F> = { type: 'filter'; patch: Partial<F> } | { type: 'page'; page: number } | { type: 'pageSize'; pageSize: number }

export function listReducer<F extends object>(state: F & Paging, action: ListAction<F>): F & Paging {
  switch (action.type) {
    case 'filter': {
      // An unchanged filter keeps the same state object, so React skips the render.
      const changed = Object.entries(action.patch).some(([k, v]) => state[k as keyof F] !== v)
      return changed ? { ...state, ...action.patch, page: 1 } : state
    }
    case 'page':
      return { ...state, page: Math.max(1, Math.floor(action.page)) }
    case 'pageSize':
      // Stay on the page that holds the first row the admin was looking at.
      return { ...state, pageSize: action.pageSize, page: Math.floor(((state.page - 1) * state.pageSize) / action.pageSize) + 1 }
  }
}

/** The number of pages for `total` rows; at least 1 so "Page 1 of 1" reads right when empty. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize))
}

export interface Sorting {
  sort: UserSort
  order: SortOrder
}

/** Clicking a column header: the sorted column flips its order, another column sorts ascending. */
export function nextSort(current: Sorting, column: UserSort): Sorting {
  if (current.sort === column) return { sort: column, order: current.order === 'asc' ? 'desc' : 'asc' }
  return { sort: column, order: 'asc' }
}

/** The header's aria-sort: only the sorted column says which way. */
export function ariaSort(current: Sorting, column: UserSort): 'ascending' | 'descending' | 'none' {
  if (current.sort !== column) return 'none'
  return current.order === 'asc' ? 'ascending' : 'descending'
}
