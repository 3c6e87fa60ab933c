import type { ReactNode } from 'react'
import { useDashboard } from '@/features/dashboard/api/get-dashboard'
import { LoadError } from '@/components/load-error'
import { PageStatus } from '@/components/ui/page-status'
import { errorMessage } from '@/lib/api-client'
import { CHECKING_ACCESS } from '@/routes/dashboard'

/**
 * The pages drawn from saved sessions (history, progress) are locked with
 * them (spec §4): access decides before anything is asked for, and
 * lockedText says so when they are.
 */
export function HistoryAccess({ lockedText, children }: { lockedText: string; children: ReactNode }) {
  const dashboard = useDashboard()
  if (dashboard.isPending) return <PageStatus>{CHECKING_ACCESS}</PageStatus>
  if (dashboard.isError) return <LoadError title={errorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
  if (dashboard.data.access.historyLocked) return <p>{lockedText}</p>
  return children
}
