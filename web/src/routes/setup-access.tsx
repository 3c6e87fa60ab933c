import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { PageStatus } from '@/components/ui/page-status'
import { UpgradeButton } from '@/features/billing/components/upgrade-button'
import { useDashboard, type Dashboard } from '@/features/dashboard/api/get-dashboard'
import { UPGRADE_TO_PRACTICE } from '@/features/dashboard/components/dashboard-home'
import { UsagePauseNotice } from '@/components/usage-pause-notice'
import type { ProfessionSlug } from '@/lib/professions'
import { CHECKING_ACCESS } from '@/routes/dashboard'

/** The way back from a practice page that has nothing to do. */
export function BackToDashboard({ slug }: { slug: ProfessionSlug }) {
  return (
    <Button asChild variant="outline" className="text-foreground">
      <Link to={`/${slug}/dashboard`}>Back to Dashboard</Link>
    </Button>
  )
}

/**
 * A page the student's access locks (spec §4): the title, why, and the one
 * action that unlocks it — the upgrade, except for a pass that was
 * suspended (a refund or dispute: buying again is not the way back) — with
 * the way back to the dashboard.
 */
export function LockedNotice({ slug, title, why, status }: { slug: ProfessionSlug; title: string; why: ReactNode; status: Dashboard['access']['status'] }) {
  return (
    <Alert variant="warning">
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription className="grid gap-3">
        <p>{why}</p>
        <div className="flex flex-wrap items-start gap-3">
          {status === 'paid_suspended' ? null : <UpgradeButton slug={slug} label={UPGRADE_TO_PRACTICE} />}
          <BackToDashboard slug={slug} />
        </div>
      </AlertDescription>
    </Alert>
  )
}

/**
 * What the setup shows instead of its form when no session could start:
 * practice locked (the reason and the one upgrade), or paused by the usage
 * guard (until when). The server refuses either way; this says so before
 * anything is filled in. If the access cannot be read the form shows,
 * and the server's refusal is the word.
 */
export function SetupAccess({ slug, children }: { slug: ProfessionSlug; children: ReactNode }) {
  const dashboard = useDashboard()
  if (dashboard.isPending) return <PageStatus>{CHECKING_ACCESS}</PageStatus>
  const access = dashboard.data?.access
  if (access && !access.practiceEnabled) {
    return <LockedNotice slug={slug} title="Practice is locked" why={access.banner} status={access.status} />
  }
  const pause = dashboard.data?.usagePause
  if (pause) {
    return (
      <div className="grid justify-items-start gap-4">
        <UsagePauseNotice pause={pause} />
        <BackToDashboard slug={slug} />
      </div>
    )
  }
  if (access?.status === 'free_trial_active') {
    return (
      <>
        <p className="rounded-md border border-border bg-muted p-3 text-sm">{freeSessionCost(access.freeSessionsRemaining)}</p>
        {children}
      </>
    )
  }
  return children
}

/** What a session costs a student on the free trial, said before it starts (issue 41). */
export function freeSessionCost(remaining: number): string {
  const left = remaining === 1 ? 'your last free session' : `1 of your ${remaining} free sessions`
  return `This session will use ${left} once one of its answers gets feedback. A session without any uses none.`
}
