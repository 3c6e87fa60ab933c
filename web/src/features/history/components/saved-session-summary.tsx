import type { ProfessionNames } from '@/components/profession-tag'
import { SessionLoadError } from '@/components/session-load-error'
import { orderForSummary } from '@/components/summary/summary'
import { Average, NothingScored, SummaryLayout, type SummarySlots } from '@/components/summary/summary-layout'
import { PageStatus } from '@/components/ui/page-status'
import type { ProfessionSlug } from '@/lib/professions'
import { sessionTime } from '@/lib/session-time'
import { useSavedSession } from '../api/get-saved-session'
import { WithEarlierAttempts } from './earlier-attempts'

/**
 * A saved session (from the dashboard's Review button); its transcripts may
 * be corrected, with the form the route gives (`correctionForm`: a
 * correction changes the practice session the copy came from).
 */
export function SavedSessionSummary({
  savedId,
  slug,
  nameOf,
  correctionForm,
}: {
  savedId: string
  slug: ProfessionSlug
  nameOf: ProfessionNames
  correctionForm: SummarySlots['correctionForm']
}) {
  const query = useSavedSession(savedId)
  if (query.isPending) return <PageStatus>Loading...</PageStatus>
  if (query.isError) return <SessionLoadError error={query.error} slug={slug} />
  const saved = query.data
  // Each saved item keeps the live item it came from (since corrections exist), which is what a correction addresses.
  const entries = orderForSummary(saved.items).map((it, i) => ({ key: String(i), answer: it, itemId: it.itemId || undefined, tip: it.tip, canRetry: false }))
  return (
    <SummaryLayout
      slug={slug}
      profession={nameOf(saved.profession)}
      title={saved.title}
      average={
        <>
          {saved.scored ? <Average score={Math.round(saved.overallAvg)} /> : <NothingScored entries={entries} />}
          <span className="text-sm text-muted-foreground">Practiced {sessionTime(saved.createdAt)}</span>
        </>
      }
      entries={entries}
      sessionId={saved.practiceSessionId || undefined}
      settled
      correctionForm={correctionForm}
      earlier={(props) => <WithEarlierAttempts {...props} />}
    />
  )
}
