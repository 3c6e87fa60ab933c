import { useSearchParams } from 'react-router'
import { ReviewPage } from '@/features/share/components/review-page'

/** `/review?token=`: a saved session a student shared, for a reviewer with no account. */
export function ReviewRoute() {
  const token = useSearchParams()[0].get('token') ?? ''
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8">
      {/* A shared session is for its reviewer: never for a search engine that found the link. */}
      <meta name="robots" content="noindex, nofollow" />
      <ReviewPage token={token} />
    </div>
  )
}
