/**
 * The query keys more than one feature touches: one feature reads the data,
 * another changes it and must have it fetched again. Features never import
 * each other, so these roots live here; each feature extends its root with
 * its own parameters (`[...queryKeys.history, query]`), and invalidating a
 * root refetches every variant of it.
 */
export const queryKeys = {
  dashboard: ['dashboard'],
  progress: ['progress'],
  history: ['history'],
  savedSessions: ['practice', 'saved'],
} as const
