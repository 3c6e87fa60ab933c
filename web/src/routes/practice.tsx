import { useCallback, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { ProfessionTag, type ProfessionNames } from '@/components/profession-tag'
import { Button } from '@/components/ui/button'
import { dashboardQueryOptions } from '@/features/dashboard/api/get-dashboard'
import { useSavedSession } from '@/features/history/api/get-saved-session'
import { WithEarlierAttempts } from '@/features/history/components/earlier-attempts'
import { SavedSessionSummary } from '@/features/history/components/saved-session-summary'
import { SaveSessionDialog } from '@/features/history/components/save-session-dialog'
import { CorrectionForm } from '@/features/practice/components/correction-form'
import { PracticeSession } from '@/features/practice/components/practice-session'
import { SessionSummary } from '@/features/practice/components/session-summary'
import { parseFocus, SetupForm } from '@/features/practice/components/setup-form'
import { useProfessions } from '@/features/professions/api/get-professions'
import { ReviewerComments } from '@/features/share/components/reviewer-comments'
import { ShareDialog, SharePanel } from '@/features/share/components/share-panel'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import type { ProfessionSlug } from '@/lib/professions'
import { BackToDashboard, SetupAccess } from './setup-access'

/** The practice pages hide the header; each is a narrow column that works at 375 px. */
function PracticePage({ docTitle, children }: { docTitle: string; children: ReactNode }) {
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8">
      <title>{`${docTitle} · Whitecoat`}</title>
      {children}
    </div>
  )
}

function useProfessionNames(): ProfessionNames {
  const list = useProfessions().data?.professions
  return (slug) => list?.find((p) => p.slug === slug)?.displayName ?? slug
}

/** A practice page opened without its session: said as the page's heading, with the ways on. */
function NothingOpen({ slug, text }: { slug: ProfessionSlug; text: string }) {
  return (
    <div className="grid justify-items-start gap-3">
      <h1 className="text-2xl font-bold">{text}</h1>
      <div className="flex flex-wrap gap-3">
        <BackToDashboard slug={slug} />
        <Button asChild>
          <Link to={`/${slug}/setup`}>Start New Session</Link>
        </Button>
      </div>
    </div>
  )
}

/** Under a saved session: its share links and what reviewers wrote, once the session itself is shown. */
function SavedSessionSharing({ savedId }: { savedId: string }) {
  const saved = useSavedSession(savedId).data
  if (!saved) return null
  return (
    <>
      <ReviewerComments savedSessionId={savedId} questions={saved.items.map((item) => item.question)} />
      <SharePanel savedSessionId={savedId} />
    </>
  )
}

/** `?focus=Ethical` (a guide's practice button) chooses that kind of question. */
export function SetupRoute() {
  const slug = useProfessionSlug()
  const focus = useSearchParams()[0].get('focus')
  const nameOf = useProfessionNames()
  return (
    <PracticePage docTitle="Setup">
      <div className="grid gap-1">
        <ProfessionTag name={nameOf(slug)} />
        <h1 className="text-3xl font-bold tracking-tight">Set up your interview</h1>
      </div>
      <SetupAccess slug={slug}>
        <SetupForm slug={slug} nameOf={nameOf} initialFocus={parseFocus(focus)} />
      </SetupAccess>
    </PracticePage>
  )
}

/** `?id=` names the session, so a reload picks up where the student was. */
export function SessionRoute() {
  const slug = useProfessionSlug()
  const nameOf = useProfessionNames()
  const id = useSearchParams()[0].get('id')
  // The account's usage pause, read fresh: the dashboard carries it.
  const queryClient = useQueryClient()
  const readPause = useCallback(() => queryClient.fetchQuery(dashboardQueryOptions()).then((d) => d.usagePause), [queryClient])
  return (
    <PracticePage docTitle="Session">
      {id ? (
        <PracticeSession sessionId={id} slug={slug} nameOf={nameOf} readPause={readPause} />
      ) : (
        <NothingOpen slug={slug} text="No practice session is open." />
      )}
    </PracticePage>
  )
}

/**
 * `?id=` is a session just practised; `?saved=` a saved session, read-only.
 * Each summary shows what the other feature owns, composed here: the live
 * one (practice) the earlier answers and saving (history), with sharing
 * (share) beside Save once saved, the saved one (history) the transcript's
 * correction (practice).
 */
export function SummaryRoute() {
  const slug = useProfessionSlug()
  const nameOf = useProfessionNames()
  const [params] = useSearchParams()
  const id = params.get('id')
  const saved = params.get('saved')
  return (
    <PracticePage docTitle="Summary">
      {saved ? (
        <>
          <SavedSessionSummary savedId={saved} slug={slug} nameOf={nameOf} correctionForm={(props) => <CorrectionForm {...props} />} />
          <SavedSessionSharing savedId={saved} />
        </>
      ) : id ? (
        <SessionSummary
          sessionId={id}
          slug={slug}
          nameOf={nameOf}
          earlier={(props) => <WithEarlierAttempts {...props} />}
          save={(props) => <SaveSessionDialog {...props} afterSave={(savedId) => <ShareDialog savedSessionId={savedId} />} />}
        />
      ) : (
        <NothingOpen slug={slug} text="No session to summarize." />
      )}
    </PracticePage>
  )
}
