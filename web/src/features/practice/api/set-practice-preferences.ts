import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/lib/api-client'
import { queryKeys } from '@/lib/query-keys'
import type { PracticePreferences } from './get-practice-preferences'

export async function setPracticePreferences(prefs: PracticePreferences) {
  return (await unwrap(api.PUT('/api/practice/preferences', { body: prefs }))).preferences
}

/**
 * Remembers the student's choice on their account. The choice shows at
 * once (a radio that waited for the server would look as if the click
 * missed) and goes back to what it was if the server refuses it.
 */
export function useSetPracticePreferences() {
  const client = useQueryClient()
  const key = queryKeys.practice.preferences
  return useMutation({
    mutationFn: setPracticePreferences,
    onMutate: async (prefs) => {
      await client.cancelQueries({ queryKey: key })
      const before = client.getQueryData<PracticePreferences>(key)
      client.setQueryData(key, prefs)
      return { before }
    },
    onError: (_err, _prefs, context) => {
      if (context?.before) client.setQueryData(key, context.before)
    },
    onSuccess: (prefs) => client.setQueryData(key, prefs),
  })
}
