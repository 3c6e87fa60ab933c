import { limits } from '@/api/limits'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { LoadError } from '@/components/load-error'
import { SavedSessionRow } from '@/components/saved-session-row'
import { Select } from '@/components/ui/select'
import { errorMessage } from '@/lib/api-client'
import { FORMAT_TEXT } from '@/lib/formats'
import { useHistory, type HistoryQuery } from '../api/list-history'

const FORMATS = limits.listHistory.query.format.enum

export interface ProfessionOption {
  slug: string
  name: string
}


/**
 * Every saved session, filtered on the server by profession, format, days and
 * question text, a page at a time. reviewPath is where a session is read.
 */
export function HistoryList({ professions, reviewPath }: { professions: ProfessionOption[]; reviewPath: (profession: string, id: string) => string }) {
  const ids = { profession: useId(), format: useId(), from: useId(), to: useId(), q: useId() }
  const [draft, setDraft] = useState<HistoryQuery>({})
  const [query, setQuery] = useState<HistoryQuery>({ page: 1 })
  const history = useHistory(query)
  const page = query.page ?? 1
  const pages = history.data ? Math.max(1, Math.ceil(history.data.total / history.data.pageSize)) : 1

  function onSubmit(e: FormEvent) {
    e.preventDefault()
    // Empty fields do not filter.
    const next: HistoryQuery = { page: 1 }
    if (draft.profession) next.profession = draft.profession
    if (draft.format) next.format = draft.format
    if (draft.from) next.from = draft.from
    if (draft.to) next.to = draft.to
    if (draft.q?.trim()) next.q = draft.q.trim()
    setQuery(next)
  }

  return (
    <div className="grid gap-6">
      <form onSubmit={onSubmit} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6 lg:items-end" aria-label="Filter sessions">
        <div className="grid gap-2">
          <Label htmlFor={ids.q}>Question contains</Label>
          <Input id={ids.q} type="search" maxLength={limits.listHistory.query.q.maxLength} value={draft.q ?? ''} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.profession}>Profession</Label>
          <Select id={ids.profession} value={draft.profession ?? ''} onChange={(e) => setDraft({ ...draft, profession: e.target.value })}>
            <option value="">All professions</option>
            {professions.map((p) => (
              <option key={p.slug} value={p.slug}>
                {p.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.format}>Format</Label>
          <Select id={ids.format} value={draft.format ?? ''} onChange={(e) => setDraft({ ...draft, format: FORMATS.find((f) => f === e.target.value) })}>
            <option value="">All formats</option>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_TEXT[f].label}
              </option>
            ))}
          </Select>
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.from}>From</Label>
          <Input id={ids.from} type="date" value={draft.from ?? ''} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={ids.to}>To</Label>
          <Input id={ids.to} type="date" value={draft.to ?? ''} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        </div>
        <Button type="submit">Show sessions</Button>
      </form>

      {history.isError ? (
        <LoadError title={errorMessage(history.error)} onRetry={() => void history.refetch()} />
      ) : (
        <section aria-labelledby="history-results" aria-busy={history.isFetching}>
          <h2 id="history-results" className="sr-only">
            Sessions
          </h2>
          <p aria-live="polite" className="text-sm text-muted-foreground">
            {history.data ? `${history.data.total} ${history.data.total === 1 ? 'session' : 'sessions'} · Page ${page} of ${pages}` : 'Loading sessions…'}
          </p>
          <ul className="divide-y">
            {history.data?.sessions.map((s) => (
              <SavedSessionRow
                key={s.id}
                session={s}
                reviewTo={reviewPath(s.profession, s.id)}
                detail={`${s.format === 'traditional' ? '' : `${FORMAT_TEXT[s.format].label} · `}${s.counts.answered} of ${s.counts.totalQuestions} answered`}
              />
            ))}
          </ul>
          {history.data?.searchLimited ? (
            <p className="text-sm text-muted-foreground">
              The search looked through your newest {history.data.searchLimit.toLocaleString()} sessions that match the other filters. Choose earlier dates to
              search older ones.
            </p>
          ) : null}
          {history.data && history.data.total === 0 ? <p className="py-6 text-center text-muted-foreground">No saved sessions match.</p> : null}
          <nav aria-label="History pages" className="flex justify-between gap-3 pt-4">
            <Button variant="outline" disabled={page <= 1} onClick={() => setQuery({ ...query, page: page - 1 })}>
              Previous
            </Button>
            <Button variant="outline" disabled={page >= pages} onClick={() => setQuery({ ...query, page: page + 1 })}>
              Next
            </Button>
          </nav>
        </section>
      )}
    </div>
  )
}
