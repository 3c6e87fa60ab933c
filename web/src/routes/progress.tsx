import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { ProgressView } from '@/features/progress/components/progress-view'
import { useProfessions } from '@/features/professions/api/get-professions'
import { PageStatus } from '@/components/ui/page-status'
import { CHECKING_ACCESS } from '@/routes/dashboard'
import { LoadError } from '@/components/load-error'
import { errorMessage } from '@/lib/api-client'
import { useProfessionSlug } from '@/hooks/use-profession-slug'

export function ProgressRoute() {
  const slug = useProfessionSlug()
  const professions = useProfessions()
  const name = professions.data?.professions.find((p) => p.slug === slug)?.displayName
  // Access decides the lock before the figures are asked for.
  const dashboard = useDashboard()

  let body
  if (dashboard.isPending) {
    body = <PageStatus>{CHECKING_ACCESS}</PageStatus>
  } else if (dashboard.isError) {
    body = <LoadError title={errorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
  } else if (dashboard.data.access.historyLocked) {
    body = <p>Your progress is locked until you upgrade.</p>
  } else {
    body = <ProgressView profession={slug} setupPath={`/${slug}/setup`} summaryPath={(id) => `/${slug}/summary?id=${encodeURIComponent(id)}`} />
  }
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-10">
      <title>Progress · Whitecoat</title>
      <div>
        <h1 className="text-2xl font-semibold">Your progress</h1>
        {name ? <p className="text-muted-foreground">{name} interviews</p> : null}
      </div>
      {body}
    </div>
  )
}
