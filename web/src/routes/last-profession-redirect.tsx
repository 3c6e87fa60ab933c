import { Navigate, useLocation } from 'react-router'
import { getLastProfession, professionPath } from '@/lib/professions'

/** `/dashboard`, `/admin`, `/setup`, ... resolve to the last profession's page. */
export function LastProfessionRedirect({ rest }: { rest: string }) {
  const location = useLocation()
  return (
    <Navigate to={{ pathname: professionPath(getLastProfession(), rest), search: location.search, hash: location.hash }} replace state={location.state} />
  )
}
