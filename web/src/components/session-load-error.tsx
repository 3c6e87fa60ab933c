import { Link } from 'react-router'
import { LoadError } from '@/components/load-error'
import { Button } from '@/components/ui/button'
import { errorMessage } from '@/lib/api-client'
import type { ProfessionSlug } from '@/lib/professions'

/** A session or saved session that could not load: the reason, and the way back to the dashboard. */
export function SessionLoadError({ error, slug }: { error: unknown; slug: ProfessionSlug }) {
  return (
    <LoadError title={errorMessage(error)}>
      <Button asChild variant="outline" size="sm">
        <Link to={`/${slug}/dashboard`}>Back to Dashboard</Link>
      </Button>
    </LoadError>
  )
}
