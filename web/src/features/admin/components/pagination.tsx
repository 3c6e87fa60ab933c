import { useEffect, useId } from 'react'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { Select } from '@/components/ui/select'
import { pageCount, PAGE_SIZES, type ListAction, type Paging } from '../utils/list-state'

/**
 * Total, page position, Previous / Next and rows per page under a
 * server-paged table.
 */
export function Pagination({
  label,
  noun,
  total,
  paging: { page, pageSize },
  dispatch,
}: {
  label: string
  /** What the rows are, plural ("users"); the count reads "1 user" by dropping the s. */
  noun: string
  total: number
  paging: Paging
  dispatch: (action: ListAction<never>) => void
}) {
  const sizeId = useId()
  const pages = pageCount(total, pageSize)

  // Deleting the last row of the last page would leave the admin on an
  // empty page past the end: step back to the new last page.
  useEffect(() => {
    if (page > pages) dispatch({ type: 'page', page: pages })
  }, [page, pages, dispatch])

  return (
    <nav aria-label={label} className="flex flex-wrap items-center justify-between gap-3 text-sm">
      <p aria-live="polite">
        {total.toLocaleString()} {total === 1 ? noun.replace(/s$/, '') : noun} · Page {Math.min(page, pages)} of {pages.toLocaleString()}
      </p>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="flex items-center gap-2">
          <Label htmlFor={sizeId}>Rows per page</Label>
          <Select id={sizeId} value={pageSize} onChange={(e) => dispatch({ type: 'pageSize', pageSize: Number(e.target.value) })} className="w-20">
            {PAGE_SIZES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex items-center gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => dispatch({ type: 'page', page: page - 1 })}>
            <ChevronLeft aria-hidden="true" />
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => dispatch({ type: 'page', page: page + 1 })}>
            Next
            <ChevronRight aria-hidden="true" />
          </Button>
        </div>
      </div>
    </nav>
  )
}
