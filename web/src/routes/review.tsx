import { useSearchParams } from 'react-router'
import { ReviewPage } from '@/features/share/components/review-page'

/** `/review?token=`: a saved session a student shared, for a reviewer with no account. */
export function ReviewRoute() {
  const token = useSearchParams()[0].get('token') ?? ''
  return (
    <div className="mx-auto grid max-w-3xl gap-6 px-4 py-8">
      <ReviewPage token={token} />
    </div>
  )
}
