import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { HistoryList } from '@/features/history/components/history-list'
import { useProfessions } from '@/features/professions/api/get-professions'
import { PageStatus } from '@/components/ui/page-status'
import { CHECKING_ACCESS } from '@/routes/dashboard'
import { LoadError } from '@/components/load-error'
import { errorMessage } from '@/lib/api-client'
import { normaliseSlug } from '@/lib/professions'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function HistoryRoute() {
  const slug = useProfessionSlug()
  const professions = useProfessions()
  // Access decides the lock before the list is asked for.
  const dashboard = useDashboard()

  let body
  if (dashboard.isPending) {
    body = <PageStatus>{CHECKING_ACCESS}</PageStatus>
  } else if (dashboard.isError) {
    body = <LoadError title={errorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
  } else if (dashboard.data.access.historyLocked) {
    body = <p>Your session history is locked until you upgrade.</p>
  } else {
    body = (
      <HistoryList
        professions={(professions.data?.professions ?? []).map((p) => ({ slug: p.slug, name: p.displayName }))}
        reviewPath={(profession, id) => `/${normaliseSlug(profession) ?? slug}/summary?saved=${encodeURIComponent(id)}`}
      />
    )
  }
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-10">
      <title>Session history · Whitecoat</title>
      <h1 className="text-2xl font-semibold">Session history</h1>
      {body}
    </div>
  )
}
