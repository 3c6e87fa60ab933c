import { PROGRESS_LOCKED, ProgressView } from '@/features/progress/components/progress-view'
import { useProfessions } from '@/features/professions/api/get-professions'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { HistoryAccess } from '@/routes/history-access'

export function ProgressRoute() {
  const slug = useProfessionSlug()
  const professions = useProfessions()
  const name = professions.data?.professions.find((p) => p.slug === slug)?.displayName
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-10">
      <title>Progress · Whitecoat</title>
      <div>
        <h1 className="text-2xl font-semibold">Your progress</h1>
        {name ? <p className="text-muted-foreground">{name} interviews</p> : null}
      </div>
      <HistoryAccess title="Progress is locked" lockedText={PROGRESS_LOCKED}>
        <ProgressView profession={slug} setupPath={`/${slug}/setup`} summaryPath={(id) => `/${slug}/summary?id=${encodeURIComponent(id)}`} />
      </HistoryAccess>
    </div>
  )
}
