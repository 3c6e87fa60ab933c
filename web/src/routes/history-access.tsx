import type { ReactNode } from 'react'
import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { useProfessionSlug } from '@/hooks/use-profession-slug'
import { errorMessage } from '@/lib/api-client'
import { CHECKING_ACCESS } from '@/routes/dashboard'
import { LockedNotice } from '@/routes/setup-access'

/**
 * The pages drawn from saved sessions (history, progress) are locked with
 * them (spec §4): access decides before anything is asked for, and when
 * they are, the page says so (lockedText, and why: the access's banner)
 * with the one action that unlocks them.
 */
export function HistoryAccess({ title, lockedText, children }: { title: string; lockedText: string; children: ReactNode }) {
  const slug = useProfessionSlug()
  const dashboard = useDashboard()
  if (dashboard.isPending) return <PageStatus>{CHECKING_ACCESS}</PageStatus>
  if (dashboard.isError) return <LoadError title={errorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
  const { access } = dashboard.data
  if (access.historyLocked) {
    return (
      <LockedNotice
        slug={slug}
        title={title}
        why={
          <>
            {lockedText} {access.banner}
          </>
        }
        status={access.status}
      />
    )
  }
  return children
}
