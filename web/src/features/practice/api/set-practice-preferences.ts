import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { PracticePreferences } from './get-practice-preferences'

export async function setPracticePreferences(prefs: PracticePreferences) {
  return (await unwrap(api.PUT('/api/practice/preferences', { body: prefs }))).preferences
}

/** Remembers the student's choice on their account. */
export function useSetPracticePreferences() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: setPracticePreferences,
    onSuccess: (prefs) => client.setQueryData(queryKeys.practice.preferences, prefs),
  })
}
